/**
 * @module How file bytes travel in JSON: `utf8` (the text itself) or `base64` (any bytes).
 * Reading picks `utf8` only for valid UTF-8 without NUL bytes, so binary files round-trip.
 */
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';

export const contentEncodingSchema = z.enum(['utf8', 'base64']);
type ContentEncoding = z.infer<typeof contentEncodingSchema>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function encodeContent(
  bytes: Buffer,
  wanted: ContentEncoding | undefined,
): { encoding: ContentEncoding; content: string } {
  if (wanted === 'base64') return { encoding: 'base64', content: bytes.toString('base64') };
  const text = bytes.includes(0) ? null : decodeUtf8(bytes);
  if (text !== null) return { encoding: 'utf8', content: text };
  if (wanted === 'utf8')
    throw new ApiError('NOT_UTF8', 'the file is not UTF-8 text; read it with encoding=base64');
  return { encoding: 'base64', content: bytes.toString('base64') };
}

export function decodeContent(content: string, encoding: ContentEncoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  // Buffer.from silently skips bad characters; a round trip proves the text was canonical base64.
  const bytes = Buffer.from(content, 'base64');
  if (bytes.toString('base64') !== content)
    throw new ApiError('INVALID_BASE64', 'content is not canonical base64 (RFC 4648, padded)');
  return bytes;
}

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
