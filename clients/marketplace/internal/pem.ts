// PEM handling as the reference does it: a PEM stored on one line (common in .env files) gets a newline
// after the header and before the footer, then the first block is decoded like Go's encoding/pem.

export type PemBlock = {
  readonly type: string;
  readonly bytes: Buffer;
};

const HEADER = /(-----BEGIN [^\r\n]*?-----)(?!\r?\n)/g;
const FOOTER = /([^\n])(-----END [^\r\n]*?-----)/g;

/** Inserts the newlines a one-line PEM lacks; a PEM that already has them is unchanged. */
export function normalizePem(pem: string): string {
  return pem.replace(HEADER, "$1\n").replace(FOOTER, "$1\n$2");
}

const STD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The first well-formed PEM block, or null. Like Go: BEGIN starts a line, the body's whitespace is
 * ignored, the body must be valid padded standard base64, and END repeats the type.
 */
export function decodePem(text: string): PemBlock | null {
  const begin = /(?:^|\n)-----BEGIN ([^\r\n]*?)-----[ \t\r]*\n/g;
  let match: RegExpExecArray | null;
  while ((match = begin.exec(text)) !== null) {
    const type = match[1] ?? "";
    const bodyStart = match.index + match[0].length;
    const footer = `-----END ${type}-----`;
    // An empty body puts END right after BEGIN's line; otherwise END starts a line of its own.
    const end = text.startsWith(footer, bodyStart) ? bodyStart : text.indexOf(`\n${footer}`, bodyStart);
    if (end === -1) continue;
    const body = text.slice(bodyStart, end).replace(/[ \t\r\n]/g, "");
    if (body.length % 4 !== 0 || !STD_BASE64.test(body)) continue;
    return { type, bytes: Buffer.from(body, "base64") };
  }
  return null;
}
