"""A study on a Dask distributed cluster (application/study_runner.py): a local cluster of
two worker processes, started as Dask's own tests start one, gives the same shards, byte
for byte, and the same Parquet rows as one process; a worker killed mid-study loses
nothing and doubles nothing once the study is run again."""

from __future__ import annotations

import os
import signal

import pytest
from cascadia.application.study import StudyFolder, StudySpec
from cascadia.application.study_runner import ClusterError, run_study
from cascadia.domain.options import GameOptions
from test_study import parquet_rows, shard_bytes

distributed = pytest.importorskip("distributed")

SPEC = StudySpec(("random",) * 4, GameOptions(), 300, 316, 2)
TABLES = ("games", "players", "events", "placements")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as local:
        yield local


def test_a_cluster_writes_what_one_process_writes(cluster, tmp_path):
    run_study(StudyFolder(tmp_path / "local"), SPEC)
    run_study(StudyFolder(tmp_path / "cluster"), SPEC, cluster=cluster.scheduler_address)
    assert shard_bytes(tmp_path / "cluster") == shard_bytes(tmp_path / "local")
    for table in TABLES:
        assert parquet_rows(tmp_path / "cluster", table) == parquet_rows(tmp_path / "local", table)


def test_a_worker_killed_mid_study_loses_and_doubles_nothing(cluster, tmp_path):
    with distributed.Client(cluster.scheduler_address) as client:
        pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one_worker(_output) -> None:
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    folder = StudyFolder(tmp_path / "study")
    first = run_study(folder, SPEC, cluster=cluster.scheduler_address, on_shard=kill_one_worker)
    assert killed
    assert first.played_shards == SPEC.shard_count  # the dead worker's shards were played elsewhere
    again = run_study(folder, SPEC, cluster=cluster.scheduler_address)
    assert (again.skipped_shards, again.played_shards) == (SPEC.shard_count, 0)
    run_study(StudyFolder(tmp_path / "reference"), SPEC)
    assert shard_bytes(tmp_path / "study") == shard_bytes(tmp_path / "reference")
    for table in TABLES:
        assert parquet_rows(tmp_path / "study", table) == parquet_rows(tmp_path / "reference", table)


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("CASCADIA_CLUSTER_TIMEOUT", "1s")
    with pytest.raises(ClusterError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        run_study(StudyFolder(tmp_path), SPEC, cluster="tcp://127.0.0.1:9")
