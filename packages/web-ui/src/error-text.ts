/** The text a screen shows for anything thrown: an error's message, or the value itself. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
