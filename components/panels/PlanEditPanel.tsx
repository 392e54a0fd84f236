import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { CoreClient, PlanState } from '../../src/protocol';
import { DrawerContext, type DrawerChannel } from '../drawer/drawer-context';
import { PlanStepsEditor } from '../drawer/forms/PlanStepsEditor';
import { useKeyTable } from '../keys/use-keys';
import { HELP_PANEL_KEYS } from '../keys/keymap';

/**
 * /plan: the plan's steps in the drawer's step editor. Saving sends `edit_plan`
 * (the agents read the new steps at their next request); Esc closes without sending anything.
 */
export function PlanEditPanel(props: {
  client: CoreClient;
  plan: PlanState | undefined;
  isActive: boolean;
  width: number;
  rows: number;
  onClose: () => void;
}) {
  const { client, plan, onClose } = props;
  // The editor speaks the drawer's channel: its save is a plan approval, its Esc a "back".
  const channel = useMemo<DrawerChannel>(
    () => ({
      dispatch: (action) => {
        if (action.type === 'decide' && action.decision.kind === 'approve_plan') {
          client.send({ type: 'edit_plan', steps: action.decision.steps });
          onClose();
        } else if (action.type === 'back') onClose();
      },
      gate: () => true,
    }),
    [client, onClose],
  );
  useKeyTable(HELP_PANEL_KEYS, { close: onClose }, { isActive: props.isActive && !plan });
  if (!plan)
    return (
      <Box flexDirection="column" width={props.width}>
        <Text>There is no plan to edit: an agent proposes one with propose_plan, and you approve it.</Text>
        <Text dimColor>Esc closes</Text>
      </Box>
    );
  return (
    <Box flexDirection="column" width={props.width}>
      <Text bold>Edit the plan: {plan.title}</Text>
      <DrawerContext.Provider value={channel}>
        <PlanStepsEditor
          steps={plan.steps.map((s) => s.text)}
          width={props.width}
          height={Math.max(3, props.rows - 2)}
          isActive={props.isActive}
        />
      </DrawerContext.Provider>
    </Box>
  );
}
