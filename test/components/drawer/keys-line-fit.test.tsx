import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { fitKeysLine } from '../../../components/drawer/ApprovalFooter';
import { makeRequest } from '../../helpers/fake-core';
import { renderDrawer } from './approval-drawer-harness';

afterEach(() => cleanup());

describe('the keys line at narrow widths', () => {
  const line = 'y approve · a all · A always · n reject · s skip · e edit · E $EDITOR · c cancel · ? help';

  it('fits unchanged when there is room', () => {
    expect(fitKeysLine(line, 200)).toBe(line);
  });

  it('drops whole keys from the end, never mid-word, and keeps ? help last', () => {
    const fitted = fitKeysLine(line, 60);
    expect(fitted.length).toBeLessThanOrEqual(60);
    expect(fitted.endsWith('· ? help')).toBe(true);
    expect(fitted.startsWith('y approve')).toBe(true);
    for (const part of fitted.split(' · ')) expect(line.split(' · ')).toContain(part);
  });

  it('a line without help is cut by whole keys too', () => {
    expect(fitKeysLine('y approve · n reject · s skip', 20)).toBe('y approve · n reject');
  });

  it('a write card at 80 columns shows ? help', async () => {
    const write = makeRequest({
      id: 'req-w',
      tool: 'write_file',
      args: { path: 'src/a.js', content: 'x\n' },
      preview: { kind: 'diff', path: 'src/a.js', before: '', after: 'x\n', isNew: true },
    });
    const d = renderDrawer([write], { width: 80 });
    await d.ready();
    const f = await d.frame('y approve');
    const keys = f.split('\n').find((l) => l.includes('y approve')) ?? f;
    expect(keys).toContain('? help');
    expect(keys).not.toContain('…');
  });
});
