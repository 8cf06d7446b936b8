// The how-to-play page: its text is in the page; this draws its key (key.js).
import { $ } from "./dom.js";
import { drawKey } from "./key.js";

drawKey($("key-body"));
