/**
 * The AWS event-stream binary encoding (`application/vnd.amazon.eventstream`) that Amazon Bedrock's ConverseStream
 * answers with, written out by hand so the test does not trust the decoder it feeds. Each message is a prelude
 * (total length, headers length: big-endian uint32s), the prelude's CRC32, the headers (name length uint8, name,
 * value type 7 = string, value length uint16, value), the payload, and the CRC32 of everything before it. Bedrock
 * pads each event's JSON payload with a `p` field, which `@ai-sdk/amazon-bedrock` drops.
 */
import { crc32 } from 'node:zlib';

const STRING = 7;
const encoder = new TextEncoder();

function encodeHeaders(headers: Record<string, string>): Uint8Array {
  const parts: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    parts.push(n.length, ...n, STRING, v.length >> 8, v.length & 0xff, ...v);
  }
  return Uint8Array.from(parts);
}

/** One event-stream message: `headers` and a JSON `payload`, framed and checksummed. */
export function awsMessage(headers: Record<string, string>, payload: unknown): Uint8Array {
  const head = encodeHeaders(headers);
  const body = encoder.encode(JSON.stringify(payload));
  const total = 12 + head.length + body.length + 4;
  const message = new Uint8Array(total);
  const view = new DataView(message.buffer);
  view.setUint32(0, total);
  view.setUint32(4, head.length);
  view.setUint32(8, crc32(message.subarray(0, 8)));
  message.set(head, 12);
  message.set(body, 12 + head.length);
  view.setUint32(total - 4, crc32(message.subarray(0, total - 4)));
  return message;
}

/** A ConverseStream event (`messageStart`, `contentBlockDelta`, `messageStop`, `metadata`…). */
export const awsEvent = (eventType: string, payload: Record<string, unknown>): Uint8Array =>
  awsMessage(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    { ...payload, p: 'abcdefghijklmnopqrstuvwxyzABCDEF' },
  );

/** A ConverseStream exception (`throttlingException`, `modelStreamErrorException`…) sent inside the stream. */
export const awsException = (exceptionType: string, message: string): Uint8Array =>
  awsMessage(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    { message },
  );
