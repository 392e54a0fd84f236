import { foldDiff } from './diff-fold';
import { cachedDiffModel, type DiffLayout, effectiveLayout } from './diff-rows';
import { DiffView } from './DiffView';

export type FoldedDiffProps = {
  path: string;
  before: string;
  after: string;
  /** The file did not exist before (one column, every line added). */
  isNew?: boolean;
  width: number;
  /** Rows for the header, the folded hunks and the count line. */
  height: number;
  /** Side by side when at least 100 columns wide (the default), or unified. */
  layout?: DiffLayout;
  /** Memo key for the line diff (e.g. `${turnId}:${path}`); defaults to the path. */
  cacheKey?: string;
};

/**
 * A file's change folded to its hunks, without keys: what the approval card shows when it opens,
 * for views that list changes (the turn review). The line diff runs once per `cacheKey`.
 */
export function FoldedDiff(props: FoldedDiffProps) {
  const isNew = props.isNew ?? false;
  const model = cachedDiffModel(props.cacheKey ?? `folded:${props.path}`, props.before, props.after, isNew);
  const layout = effectiveLayout(model, props.layout ?? 'split', props.width);
  const folded = foldDiff(model, layout, false);
  return (
    <DiffView
      path={props.path}
      model={model}
      folded={folded}
      layout={layout}
      offset={0}
      width={props.width}
      height={props.height}
      hint={false}
    />
  );
}
