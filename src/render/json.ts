// Renders any JSON document the service publishes: two-space indentation and a final newline, nothing else.

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
