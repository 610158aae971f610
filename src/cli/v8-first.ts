/**
 * Imported by cli/main.ts for this side effect, before the program's modules: `load` and
 * `capacity` get V8's heap flags for a run holding every request until its webhook
 * (v8-flags.ts) before the module graph loads, not once their command runs. Why: V8 grows its
 * young generation while the ~400 modules load (to ~30 MB of new space on Node 26), and
 * `--semi-space-growth-factor=1` set afterwards only stops it growing, never shrinks it; set
 * first, it stays at its start (2 MB): ~45 MB less RSS for the whole run (bench/pending.js).
 * The command is the first argument not starting with `-` (no option of the program comes
 * before it); the commands set the flags again when they run (idempotent), so nothing is lost
 * when it is not found here.
 */
import { tuneHeapForPendingRequests } from '../v8-flags.js';

const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (command === 'load' || command === 'capacity') tuneHeapForPendingRequests();
