/**
 * Pure line builders for the drawer's scrollable previews (command, arguments, plan steps). Each
 * line fits the width already, so a view of N rows is exactly N terminal lines.
 */
import type { ApprovalPreview, ApprovalRequest } from '../../../src/protocol';
import { formatDurationCoarse } from '../../../src/text/duration';
import { wrap } from '../../../src/text/wrap';
import { prettyJson } from '../../../src/text/json';

export type LineTone = 'command' | 'label' | 'note' | 'plain' | 'dim';
export type PreviewLine = { text: string; tone: LineTone };

type CommandPreview = Extract<ApprovalPreview, { kind: 'command' }>;
type PlanPreview = Extract<ApprovalPreview, { kind: 'plan' }>;

function wrapped(text: string, width: number, first: string, rest: string, tone: LineTone): PreviewLine[] {
  return wrap(text, Math.max(1, width - first.length)).map((line, i) => ({
    text: (i === 0 ? first : rest) + line,
    tone,
  }));
}

/**
 * The command in full (never truncated: it is what runs), its parts, cwd, timeout and notes. Runs of
 * blank rows fold into one line that counts them, so no line of the command can hide below the fold
 * behind blank ones (40 empty lines, then the real command).
 */
export function commandPreviewLines(preview: CommandPreview, width: number): PreviewLine[] {
  const lines = foldBlankRuns(wrapped(preview.command, width, '$ ', '  ', 'command'));
  // Right under the command, before anything that scrolls: what the run will write.
  for (const w of preview.writes ?? [])
    lines.push(
      ...wrapped(
        `${w.path}${writeTag(w)}`,
        width,
        'writes   ',
        '         ',
        w.protected || w.dynamic ? 'note' : 'plain',
      ),
    );
  // And which hosts it may reach: approving the card lets this run reach these, and nothing else.
  for (const h of preview.network ?? [])
    lines.push(
      ...wrapped(
        `${h.host}${h.warning ? ` — ${h.warning}` : ''}${h.listed ? ' (in your sandbox.network)' : ''}`,
        width,
        'reaches  ',
        '         ',
        h.warning ? 'note' : 'plain',
      ),
    );
  lines.push(...unreviewedLines(preview, width));
  if (preview.parts.length > 1) {
    lines.push({ text: `${preview.parts.length} commands run:`, tone: 'label' });
    preview.parts.forEach((part, i) => {
      const n = `${i + 1}. `;
      lines.push(...wrapped(part, width, `  ${n}`, ' '.repeat(n.length + 2), 'plain'));
    });
  }
  lines.push(...wrapped(preview.cwd, width, 'cwd      ', '         ', 'plain'));
  lines.push({ text: `timeout  ${formatDurationCoarse(preview.timeoutMs)}`, tone: 'plain' });
  for (const note of preview.notes) lines.push(...wrapped(note, width, 'note     ', '         ', 'note'));
  return lines;
}

/** Two or more rows with nothing but blanks after their prefix become one dim row saying how many. */
function foldBlankRuns(rows: PreviewLine[]): PreviewLine[] {
  const out: PreviewLine[] = [];
  let run = 0;
  const flush = () => {
    if (run === 1) out.push({ text: '  ', tone: 'command' });
    else if (run > 1) out.push({ text: `  ⋯ ${run} blank lines`, tone: 'dim' });
    run = 0;
  };
  for (const row of rows) {
    // The first row keeps its `$ `, blank or not.
    if (out.length > 0 && row.text.trim() === '') run++;
    else {
      flush();
      out.push(row);
    }
  }
  flush();
  return out;
}

/** Provenance: what this run of project code would run that no person has reviewed yet. */
function unreviewedLines(preview: CommandPreview, width: number): PreviewLine[] {
  const u = preview.unreviewed;
  if (!u) return [];
  const lines: PreviewLine[] = [
    { text: 'runs project code that agents changed and you have not reviewed:', tone: 'note' },
  ];
  const shown = u.files.slice(0, MAX_UNREVIEWED);
  for (const f of shown) lines.push(...wrapped(f, width, '  · ', '    ', 'note'));
  if (u.files.length > shown.length)
    lines.push({ text: `  · and ${u.files.length - shown.length} more`, tone: 'note' });
  if (u.commands > 0)
    lines.push({
      text: `  · and what ${u.commands === 1 ? '1 command' : `${u.commands} commands`} changed this turn`,
      tone: 'note',
    });
  return lines;
}

const MAX_UNREVIEWED = 8;

function writeTag(w: NonNullable<CommandPreview['writes']>[number]): string {
  if (w.protected) return ' (protected)';
  if (w.dynamic) return ' (only known at run time)';
  return w.scratch ? ' (sandbox scratch, discarded)' : '';
}

/** The arguments as pretty JSON, one JSON line per row (long lines wrap). */
export function argsPreviewLines(request: ApprovalRequest, width: number): PreviewLine[] {
  const lines: PreviewLine[] = [];
  const mcp = /^mcp__(.+?)__(.+)$/.exec(request.tool);
  if (mcp) lines.push({ text: `MCP server ${mcp[1]} · tool ${mcp[2]}`, tone: 'label' });
  const effects = request.preview.kind === 'json' ? (request.preview.effects ?? []) : [];
  for (const effect of effects) lines.push(...wrapped(effect, width, '', '  ', 'plain'));
  if (effects.length) lines.push({ text: 'arguments', tone: 'label' });
  for (const line of prettyJson(request.args).split('\n')) {
    lines.push(...wrapped(line, width, '', '  ', 'plain'));
  }
  return lines;
}

/** Numbered plan steps. */
export function planPreviewLines(preview: PlanPreview, width: number): PreviewLine[] {
  const lines: PreviewLine[] = [];
  preview.steps.forEach((step, i) => {
    const n = `${String(i + 1).padStart(2)}. `;
    lines.push(...wrapped(step, width, n, ' '.repeat(n.length), 'plain'));
  });
  if (!preview.steps.length) lines.push({ text: '(the plan has no steps)', tone: 'dim' });
  return lines;
}
