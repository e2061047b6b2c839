/**
 * A jest reporter that prints, after the run, every test file's wall time, slowest first, with
 * its share of the run: so the next slow suite is visible in every `npm test`.
 * Added in jest.config.ts beside the default reporter.
 */
const path = require('node:path');

class SuiteTimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .filter((result) => result.perfStats && result.perfStats.end > result.perfStats.start)
      .map((result) => ({
        file: path.relative(this.rootDir, result.testFilePath),
        seconds: (result.perfStats.end - result.perfStats.start) / 1000,
        failed: result.numFailingTests > 0 || Boolean(result.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (suites.length === 0) return;
    const total = suites.reduce((sum, suite) => sum + suite.seconds, 0);
    const wall = (Date.now() - results.startTime) / 1000;
    const lines = suites.map(
      (suite) =>
        `  ${suite.seconds.toFixed(1).padStart(7)} s  ${((100 * suite.seconds) / total).toFixed(1).padStart(5)} %  ${suite.file}${
          suite.failed ? '  (failed)' : ''
        }`,
    );
    process.stdout.write(
      `\nTime per test file, slowest first (${suites.length} files, ${total.toFixed(0)} s of suite time over ${wall.toFixed(0)} s of wall time):\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SuiteTimesReporter;
