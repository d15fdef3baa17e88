/** A gzipped tar (ustar) of a few small files in memory: what `npm install <url>` reads. */
import { gzipSync } from "node:zlib";

export type TarEntry = { path: string; content: string | Buffer };

const BLOCK = 512;

export function tarGz(entries: TarEntry[], mtime = new Date(0)): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content);
    blocks.push(header(entry.path, body.length, mtime), pad(body));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks));
}

function header(path: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(path) > 100) throw new Error(`tar: path too long: ${path}`);
  const block = Buffer.alloc(BLOCK);
  block.write(path, 0, 100, "utf8");
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  block.write("        ", 148); // the checksum counts its own field as spaces
  block.write("0", 156); // a regular file
  block.write("ustar\u000000", 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148);
  return block;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\u0000`;
}

function pad(body: Buffer): Buffer {
  const rest = body.length % BLOCK;
  return rest === 0 ? body : Buffer.concat([body, Buffer.alloc(BLOCK - rest)]);
}
