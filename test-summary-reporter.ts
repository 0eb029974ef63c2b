// Prints one plain closing line, "Tests: N passed, N failed, N skipped", and the count per project.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    const perProject = new Map<string, number>();
    for (const module of testModules) {
      const project = module.project.name || 'default';
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') totals.passed += 1;
        else if (state === 'failed') totals.failed += 1;
        else totals.skipped += 1;
        if (state === 'passed') perProject.set(project, (perProject.get(project) ?? 0) + 1);
      }
    }
    const projects = [...perProject].map(([name, n]) => `${name} ${n}`).join(', ');
    console.log(`\nPassed per project: ${projects}`);
    console.log(
      `Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`,
    );
  }
}
