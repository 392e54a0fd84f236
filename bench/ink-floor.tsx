// The bundled-Ink hello-world floor of issue 16: the least a full-screen Ink app does before its
// first frame — a bordered Box with one line of text and a one-line prompt that echoes keys, exits
// on Escape. bench/tui.bench.ts bundles it as scripts/build.mjs bundles warden and times its first frame.
import { Box, Text, render, useApp, useInput } from 'ink';
import { useState } from 'react';

function Floor() {
  const { exit } = useApp();
  const [value, setValue] = useState('');
  useInput((input, key) => {
    if (key.escape) exit();
    else if (key.backspace || key.delete) setValue((v) => v.slice(0, -1));
    else if (input && !key.ctrl && !key.meta) setValue((v) => v + input);
  });
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text>hello from the Ink floor</Text>
      <Text>
        <Text color="cyan">› </Text>
        {value}
        <Text inverse> </Text>
      </Text>
    </Box>
  );
}

render(<Floor />, { exitOnCtrlC: true });
