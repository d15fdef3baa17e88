/**
 * A device id from stable browser attributes, hashed here: screen, hardware, languages,
 * timezone, and how this machine renders a canvas and names its GPU. No storage, so clearing
 * cookies or a private window keeps the id; a browser update or a new monitor may change it.
 * Why our own hash and not FingerprintJS: docs/decisions/006-collector.md.
 */

/** Two independent 53-bit hashes of a string (cyrb53), as 28 hex digits. */
export function hash(text: string): string {
  const half = (seed: number) => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
  };
  return half(1) + half(2);
}

function canvasPrint(): string {
  try {
    const canvas = document.createElement("canvas");
    canvas.width = 240;
    canvas.height = 60;
    const ctx = canvas.getContext("2d");
    if (!ctx) return "";
    ctx.textBaseline = "alphabetic";
    ctx.fillStyle = "#f60";
    ctx.fillRect(100, 1, 62, 20);
    ctx.fillStyle = "#069";
    ctx.font = "14px 'Arial'";
    ctx.fillText("Warden, cwm fjord 😃", 2, 15);
    ctx.fillStyle = "rgba(102, 204, 0, 0.7)";
    ctx.font = "18px serif";
    ctx.fillText("Warden, cwm fjord 😃", 4, 45);
    ctx.beginPath();
    ctx.arc(200, 30, 20, 0, Math.PI * 2);
    ctx.stroke();
    return hash(canvas.toDataURL());
  } catch {
    return "";
  }
}

function gpu(): string {
  try {
    const gl = document.createElement("canvas").getContext("webgl");
    if (!gl) return "";
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    return info
      ? `${gl.getParameter(info.UNMASKED_VENDOR_WEBGL)}|${gl.getParameter(info.UNMASKED_RENDERER_WEBGL)}`
      : `${gl.getParameter(gl.VENDOR)}|${gl.getParameter(gl.RENDERER)}`;
  } catch {
    return "";
  }
}

/** The attributes, in a fixed order; exported for the table test. */
export function attributes(): string[] {
  const nav = navigator as Navigator & { deviceMemory?: number };
  return [
    `${screen.width}x${screen.height}x${screen.colorDepth}`,
    String(window.devicePixelRatio),
    String(nav.hardwareConcurrency ?? ""),
    String(nav.deviceMemory ?? ""),
    String(nav.maxTouchPoints ?? ""),
    nav.platform ?? "",
    (nav.languages ?? [nav.language]).join(","),
    Intl.DateTimeFormat().resolvedOptions().timeZone ?? "",
    canvasPrint(),
    gpu(),
  ];
}

let cached: string | undefined;

/** "wd1_" and 28 hex digits; computed once per page. */
export function deviceId(): string {
  cached ??= `wd1_${hash(attributes().join("\u0001"))}`;
  return cached;
}
