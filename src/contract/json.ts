// The one JSON serialiser of everything the service publishes (documents, problem bodies, the manifest): two-space indentation and a final newline.

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
