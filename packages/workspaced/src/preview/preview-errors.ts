/**
 * @module The preview origin's own answers (refusals, a closed port): the daemon's JSON error
 * body, or a small HTML page when a browser navigates there (`Accept: text/html`), so a person
 * looking at a preview tab reads what happened. Never cached, never framed by the previewed app's
 * headers (none are sent).
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import { type ErrorCode, errorStatus } from '../http/error-codes.js';

export interface PreviewError {
  status: number;
  code: ErrorCode;
  message: string;
}

/** An answer of the preview origin; its status comes from the daemon's error table. */
export const previewError = (code: ErrorCode, message: string): PreviewError => ({
  status: errorStatus[code],
  code,
  message,
});

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

function render(error: PreviewError, accept: string | undefined): { type: string; body: string } {
  if (accept?.includes('text/html')) {
    const title = `${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`;
    return {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${escapeHtml(error.message)}</p><p><code>${error.code}</code> (workspaced preview)</p>\n`,
    };
  }
  return {
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({ error: { code: error.code, message: error.message } }),
  };
}

const ownHeaders = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

export function answerError(response: ServerResponse, error: PreviewError, accept: string | undefined): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const { type, body } = render(error, accept);
  response.writeHead(error.status, {
    ...ownHeaders,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

export const upstreamUnavailable = (port: number): PreviewError =>
  previewError(
    'PREVIEW_UPSTREAM_UNAVAILABLE',
    `nothing answers on port ${port} of this machine (127.0.0.1 or [::1]); start the app, then reload`,
  );
