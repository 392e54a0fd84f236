import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { auditDetailRows } from '../../../components/panels/audit-detail-rows';
import { AuditDetail } from '../../../components/panels/AuditDetail';
import { makeAuditRecord } from '../../helpers/fake-core';
import { KEY, waitForFrame } from '../../helpers/ink';

const content = Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n');
const longReason = `the command failed: ${'word '.repeat(60)}THE-END`;
const record = makeAuditRecord({
  tool: 'execute_command',
  args: { command: 'npm test', lines: content.split('\n') },
  reason: longReason,
});
const names = (id: string) => id;

function show(rows = 12, width = 80) {
  return render(<AuditDetail record={record} width={width} rows={rows} agentName={names} isActive />);
}

describe('AuditDetail', () => {
  it('lays out every row of the record: a long reason wrapped whole, every args line', () => {
    const rows = auditDetailRows(record, 80, names).map((r) => r.text);
    expect(rows.join(' ')).toContain('THE-END');
    for (let i = 1; i <= 60; i++) expect(rows.some((r) => r.includes(`"row ${i}"`))).toBe(true);
    expect(rows.every((r) => r.length <= 80)).toBe(true);
  });

  it.each([
    ['↓ scrolls a line', [KEY.down], 'lines 2–12 of'],
    ['PgDn scrolls a page', [KEY.pageDown], 'lines 12–22 of'],
    ['PgDn then PgUp comes back', [KEY.pageDown, KEY.pageUp], 'lines 1–11 of'],
    ['↑ at the top stays', [KEY.up], 'lines 1–11 of'],
  ])('%s, and the position says where', async (_name, keys, position) => {
    const { lastFrame, stdin } = show();
    await waitForFrame(lastFrame, 'lines 1–11 of');
    for (const k of keys) stdin.write(k);
    await waitForFrame(lastFrame, position);
  });

  it('End shows the last rows of the record, Home the first', async () => {
    const { lastFrame, stdin } = show();
    await waitForFrame(lastFrame, 'lines 1–11 of');
    stdin.write(KEY.end);
    const end = await waitForFrame(lastFrame, '"row 60"');
    expect(end).not.toContain('more below');
    expect(end).toContain('more above');
    stdin.write(KEY.home);
    await waitForFrame(lastFrame, 'execute_command ·');
  });

  it('an inactive view does not scroll', async () => {
    const { lastFrame, stdin } = render(
      <AuditDetail record={record} width={80} rows={12} agentName={names} isActive={false} />,
    );
    await waitForFrame(lastFrame, 'lines 1–11 of');
    stdin.write(KEY.pageDown);
    await new Promise((r) => setImmediate(r));
    expect(lastFrame()).toContain('lines 1–11 of');
  });
});
