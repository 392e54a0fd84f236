import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Both cores: vitest's default (cores − 1) ran the files one at a time here, 8 – 8.5 minutes of a
    // 10-minute budget; two at a time took 5.3. The tests wait for what they need, so they hold under load.
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
