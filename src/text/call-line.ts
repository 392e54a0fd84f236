/**
 * One line for a call whose tool says nothing of its own (an MCP tool, arguments that do not parse):
 * its first plain argument (a string, number or boolean at the top level), else its compact JSON.
 * Tools with a better line declare `summary(args)` (src/tools/types.ts). Pure; never throws.
 */
export function callLine(args: unknown): string {
  if (args === null || typeof args !== 'object') return String(args ?? '');
  for (const value of Object.values(args as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      return String(value);
  }
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return '';
  }
}
