import { Text } from 'ink';

/** The plain count of lines outside the view, e.g. "↑ 120 lines above · ↓ 300 below". */
export function ApprovalScrollCounts(props: { above: number; below: number; hint?: string }) {
  const parts: string[] = [];
  if (props.above > 0) parts.push(`↑ ${props.above} ${props.above === 1 ? 'line' : 'lines'} above`);
  if (props.below > 0) parts.push(`↓ ${props.below} below`);
  const text = parts.length ? parts.join(' · ') : 'all lines shown';
  return (
    <Text dimColor wrap="truncate-end">
      {props.hint ? `${text} · ${props.hint}` : text}
    </Text>
  );
}
