/**
 * A map from an identity's digest (32 lowercase hex characters, as `digest` makes them) to an
 * int, held in typed arrays: open addressing on the digest's own bits, 20 bytes an entry and
 * nothing for the garbage collector to trace. A backtest of a million events holds millions
 * of identities; as Map keys they cost ~80 bytes each and every full GC marked them all.
 * Any other text (a value that is not a digest) goes to an ordinary Map, so the answers are
 * those of a Map whatever the keys.
 */
export function createDigestTable(initialCapacity = 1 << 12) {
  let capacity = initialCapacity; // a power of two, at most half full
  let mask = capacity - 1;
  let keys = new Uint32Array(capacity * 4);
  let values = new Int32Array(capacity);
  let used = new Uint8Array(capacity);
  let count = 0;
  const other = new Map<string, number>();
  const word = new Uint32Array(4);

  /** Reads a digest into `word`; false when the text is not 32 lowercase hex characters. */
  function parse(text: string): boolean {
    if (text.length !== 32) return false;
    for (let j = 0; j < 4; j++) {
      let x = 0;
      for (let i = j * 8, end = i + 8; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c >= 48 && c <= 57) x = (x << 4) | (c - 48);
        else if (c >= 97 && c <= 102) x = (x << 4) | (c - 87);
        else return false;
      }
      word[j] = x;
    }
    return true;
  }

  /** The slot holding `word`, or the empty slot where it would go. */
  function slot(): number {
    const w0 = word[0] as number;
    const w1 = word[1] as number;
    const w2 = word[2] as number;
    const w3 = word[3] as number;
    // SHA-256 bits are uniform: the first word is a good enough hash.
    let i = w0 & mask;
    for (;;) {
      if (used[i] === 0) return i;
      const k = i * 4;
      if (keys[k] === w0 && keys[k + 1] === w1 && keys[k + 2] === w2 && keys[k + 3] === w3) {
        return i;
      }
      i = (i + 1) & mask;
    }
  }

  function put(i: number, value: number) {
    const k = i * 4;
    keys[k] = word[0] as number;
    keys[k + 1] = word[1] as number;
    keys[k + 2] = word[2] as number;
    keys[k + 3] = word[3] as number;
    used[i] = 1;
    values[i] = value;
  }

  /** Rebuilds the table at `size` slots with the entries `keep` accepts. */
  function rebuild(size: number, keep: (value: number) => boolean) {
    const oldKeys = keys;
    const oldValues = values;
    const oldUsed = used;
    const oldCapacity = capacity;
    capacity = size;
    mask = size - 1;
    keys = new Uint32Array(size * 4);
    values = new Int32Array(size);
    used = new Uint8Array(size);
    count = 0;
    for (let i = 0; i < oldCapacity; i++) {
      if (oldUsed[i] === 0 || !keep(oldValues[i] as number)) continue;
      const k = i * 4;
      word[0] = oldKeys[k] as number;
      word[1] = oldKeys[k + 1] as number;
      word[2] = oldKeys[k + 2] as number;
      word[3] = oldKeys[k + 3] as number;
      put(slot(), oldValues[i] as number);
      count += 1;
    }
  }

  /** Inserts `text` → `value` (a new key), growing first when half full. */
  function insert(text: string, value: number) {
    if ((count + 1) * 2 > capacity) {
      rebuild(capacity * 2, () => true);
      parse(text);
    }
    put(slot(), value);
    count += 1;
  }

  return {
    get(text: string): number | undefined {
      if (!parse(text)) return other.get(text);
      const i = slot();
      return used[i] === 1 ? values[i] : undefined;
    },

    /** Stores `value` for `text` and returns what it held before (undefined if nothing). */
    swap(text: string, value: number): number | undefined {
      if (!parse(text)) {
        const before = other.get(text);
        other.set(text, value);
        return before;
      }
      const i = slot();
      if (used[i] === 1) {
        const before = values[i];
        values[i] = value;
        return before;
      }
      insert(text, value);
      return undefined;
    },

    /** The value held for `text`, after storing `value` for it if it held none. */
    getOrAdd(text: string, value: number): number {
      if (!parse(text)) {
        const before = other.get(text);
        if (before !== undefined) return before;
        other.set(text, value);
        return value;
      }
      const i = slot();
      if (used[i] === 1) return values[i] as number;
      insert(text, value);
      return value;
    },

    /** Forgets every entry whose value `keep` rejects. */
    retain(keep: (value: number) => boolean) {
      rebuild(capacity, keep);
      for (const [text, value] of other) if (!keep(value)) other.delete(text);
    },

    get size(): number {
      return count + other.size;
    },
  };
}

export type DigestTable = ReturnType<typeof createDigestTable>;
