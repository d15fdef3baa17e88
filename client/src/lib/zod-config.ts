/**
 * Imported first by main.tsx: zod's JIT probes `new Function`, which our CSP (script-src
 * 'self', no 'unsafe-eval') refuses and reports as a violation. Plain parsing is fast enough.
 */
import { z } from "zod";

z.config({ jitless: true });
