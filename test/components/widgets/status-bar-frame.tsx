import { render } from 'ink-testing-library';
import type { ComponentProps } from 'react';
import { StatusBar } from '../../../components/widgets/StatusBar';
import { makeState } from '../../helpers/fake-core';
import { stripAnsi } from '../../helpers/ink';

/** The status bar alone, 160 columns wide, as plain text: defaults for an idle manual session, plus `props`. */
export function statusBarFrame(props: Partial<ComponentProps<typeof StatusBar>>): string {
  const s = makeState();
  const { lastFrame, unmount } = render(
    <StatusBar
      model={s.model}
      mode={s.mode}
      sandboxed
      pendingCount={0}
      usage={s.usage}
      root="/p"
      mcp={[]}
      busy={false}
      width={160}
      {...props}
    />,
  );
  const frame = stripAnsi(lastFrame() ?? '');
  unmount();
  return frame;
}
