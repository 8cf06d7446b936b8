"""Worker processes end with the process that started them (bots/worker_processes.py).

Each test starts a parent in a session of its own, kills or interrupts it once its
workers are busy, and checks that none of its worker processes is left running."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from cascadia.bots import worker_processes

CASCADIA = str(Path(sys.executable).with_name("cascadia"))
PARENT = textwrap.dedent(
    """
    import multiprocessing, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from cascadia.bots.worker_processes import START_METHOD, serve_parent

    def busy(_):
        while True:
            time.sleep(0.01)

    if __name__ == "__main__":
        context = multiprocessing.get_context(START_METHOD)
        if sys.argv[1] == "executor":
            pool = ProcessPoolExecutor(2, mp_context=context, initializer=serve_parent)
            pool.map(busy, range(2))
        else:
            pool = context.Pool(2, initializer=serve_parent)
            pool.map_async(busy, range(2))
        time.sleep(0.5)
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
        time.sleep(600)
    """
)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except OSError:
            continue
    return found


def assert_all_end(pids: list[int], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while any(map(alive, pids)):
        assert time.monotonic() < deadline, f"still running: {[p for p in pids if alive(p)]}"
        time.sleep(0.05)


pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")


@pytest.mark.parametrize("pool", ["executor", "pool"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_when_their_parent_is_killed(tmp_path, pool, sig):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script), pool], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(map(alive, workers))
        parent.send_signal(sig)
        parent.wait(10)
        assert_all_end(workers)
    finally:
        with_group_killed(parent)


def with_group_killed(process: subprocess.Popen[str]) -> None:
    """Whatever a test left of ``process``'s session, killed."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def start_study(folder: Path) -> subprocess.Popen[str]:
    """``cascadia study`` with two workers, returned once its first shard is written."""
    process = subprocess.Popen(
        [CASCADIA, "study", str(folder), "-n", "2000", "--shard-size", "20", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not list(folder.glob("shards/*/*.cascadia-shard")):
        assert process.poll() is None and time.monotonic() < deadline, "the study did not start"
        time.sleep(0.05)
    return process


def test_a_study_killed_leaves_no_worker_running(tmp_path):
    study = start_study(tmp_path / "study")
    try:
        workers = children(study.pid)
        assert len(workers) >= 2
        study.kill()
        study.wait(10)
        assert_all_end(workers)
    finally:
        with_group_killed(study)


def test_ctrl_c_stops_a_study_with_one_line_and_no_worker_left(tmp_path):
    """Ctrl-C reaches the whole foreground group: the parent reports it, the workers
    neither print tracebacks nor go on with the study."""
    study = start_study(tmp_path / "study")
    try:
        workers = children(study.pid)
        os.killpg(study.pid, signal.SIGINT)
        _, err = study.communicate(timeout=60)
        assert study.returncode == 130
        assert "Traceback" not in err and "KeyboardInterrupt" not in err
        assert err.strip().splitlines()[-1:] == ["error: interrupted"]
        assert_all_end(workers)
    finally:
        with_group_killed(study)


def test_outside_a_pool_serving_a_parent_changes_nothing():
    handler = signal.getsignal(signal.SIGINT)
    threads = set(threading.enumerate())
    worker_processes.serve_parent()
    assert signal.getsignal(signal.SIGINT) is handler
    assert set(threading.enumerate()) == threads
