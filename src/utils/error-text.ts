/** The message of anything thrown (an Error's message, else its string form): one rule for every layer. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
