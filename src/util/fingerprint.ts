/**
 * A short, stable, one-way fingerprint of a secret (the first 16 hex digits of its SHA-256), so that a shared key can
 * tell two API keys apart without holding either. Web Crypto: the same in Node, edge runtimes and browsers.
 */
export async function fingerprint(secret: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  let hex = '';
  for (const byte of new Uint8Array(digest).subarray(0, 8)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
