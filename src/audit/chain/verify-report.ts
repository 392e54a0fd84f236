/** `warden audit --verify`'s words: one line per day that verified, then the break, if any. */
import type { DayChecked, VerifyResult } from './verify';

/** The report and the exit code: 0 when every day verified, 1 at a break. */
export function verifyReport(result: VerifyResult, none: string): { text: string; code: number } {
  const lines = result.days.map(dayLine);
  if (result.broken) lines.push(`BROKEN ${result.broken.text}`);
  else if (result.days.length === 0) lines.push(none);
  else {
    const n = result.days.reduce((sum, d) => sum + d.lines, 0);
    lines.push(
      `OK: ${n.toLocaleString('en')} line${n === 1 ? '' : 's'} in ${result.days.length} day file${result.days.length === 1 ? '' : 's'}, chain intact.`,
    );
  }
  return { text: `${lines.join('\n')}\n`, code: result.broken ? 1 : 0 };
}

function dayLine(d: DayChecked): string {
  const notes = [
    d.unchained > 0 ? `${d.unchained} before the chain began (an older warden)` : '',
    d.repaired > 0 ? `${d.repaired} torn line${d.repaired === 1 ? '' : 's'} repaired and stated` : '',
    d.tornAtEnd ? 'ends with a line cut short (the next write repairs it)' : '',
    d.startsAfterMissingDay ? 'links to a day whose file is not here' : '',
  ].filter(Boolean);
  const rest = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return `${d.file}: ${d.lines.toLocaleString('en')} line${d.lines === 1 ? '' : 's'}, intact${rest}`;
}
