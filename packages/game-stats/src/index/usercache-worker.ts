/**
 * @module Worker thread that reads and parses `usercache.json` while the API is listening: at
 * 100,000 players the file is 11 MB, and its JSON.parse alone holds a thread 50-80 ms (the whole
 * parse and validation about 285 ms), which the event loop must not. The entries come back as
 * columns (see `packUsercache`), cheap to copy between threads.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { packUsercache, parseUsercache } from './usercache.js';

const { file } = workerData as { file: string };
const columns = packUsercache(parseUsercache(readFileSync(file, 'utf8')));
parentPort!.postMessage(columns, [columns.seenAt.buffer]);
