/** A one-line terminal progress bar on stderr (plain lines when stderr is not a terminal). */
export function progressBar(label: string) {
  const tty = process.stderr.isTTY;
  let last = -1;
  return {
    update(percent: number, detail = "") {
      const p = Math.max(0, Math.min(100, Math.round(percent)));
      if (!tty && p === last) return;
      if (!tty && p % 10 !== 0 && p !== 100) return;
      last = p;
      const width = 30;
      const filled = Math.round((p / 100) * width);
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      const line = `${label} ${bar} ${String(p).padStart(3)}% ${detail}`;
      process.stderr.write(tty ? `\r${line}` : `${line}\n`);
    },
    done(message: string) {
      process.stderr.write(`${tty ? "\n" : ""}${message}\n`);
    },
  };
}

/** `--name value` pairs from argv. */
export function flags(argv = process.argv.slice(2)): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      out[name ?? ""] = inline ?? argv[i + 1] ?? "";
      if (inline === undefined) i++;
    }
  }
  return out;
}
