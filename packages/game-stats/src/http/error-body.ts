/**
 * @module The spec's error body `{success:false, status, error, timestamp}` and the soft
 * `Stats not found` answer (HTTP 200).
 */

interface ErrorBody {
  success: false;
  status: number;
  error: string;
  timestamp: string;
}

function errorBody(status: number, message: string): ErrorBody {
  return { success: false, status, error: message, timestamp: new Date().toISOString() };
}

export function errorResponse(status: number, message: string, headers?: Record<string, string>): Response {
  const response = new Response(JSON.stringify(errorBody(status, message)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.set(name, value);
  return response;
}

/** A known player without a statistics file: 200, as the original plugin answers. */
export const statsNotFoundBody = { error: true, message: 'Stats not found' } as const;
