// check 跑课程测试时用的 vitest reporter：每收集完一个测试文件、每个测试有了结果，各写一行 JSON
// 到 LEARN_PI_PRACTICE_EVENTS 指的文件。边跑边写，不等整轮结束：学习者的代码卡死时，check 杀掉 vitest
// 也不丢已有的结果。测试开始、结束那两行由 worker 里的 worker-setup.ts 写。
import { appendFileSync } from "node:fs";
import type { SerializedError } from "vitest";
import type { Reporter, TestCase, TestModule } from "vitest/node";

export const EVENTS_ENV = "LEARN_PI_PRACTICE_EVENTS";

/** cause：fast-check 的性质没过时，真正没满足的那条断言在这里。 */
export type ErrorInfo = { message: string; expected?: string; actual?: string; diff?: string; stack?: string; cause?: ErrorInfo };
export type CollectedTest = { id: string; name: string; line: number };

/** 一行事件。id 在 collected、start、end 之间对得上；errors 是 vitest 序列化过的错误（值都已是文字）。 */
export type TestEvent =
  | { event: "collected"; file: string; tests: CollectedTest[] }
  /** worker-setup.ts 写的：测试开始前、结束后。 */
  | { event: "start"; id: string }
  | { event: "finish"; id: string }
  | { event: "end"; id: string; state: "passed" | "failed" | "skipped" | "pending"; errors: ErrorInfo[] }
  | { event: "file-end"; file: string }
  | { event: "done"; errors: ErrorInfo[] };

type Serialized = SerializedError & { expected?: string; actual?: string; diff?: string; cause?: unknown };

const info = (e: Serialized): ErrorInfo => ({
  message: e.message ?? String(e),
  expected: e.expected,
  actual: e.actual,
  diff: e.diff,
  stack: e.stack,
  cause: typeof e.cause === "object" && e.cause !== null && "message" in e.cause ? info(e.cause as Serialized) : undefined,
});

export default class EventsReporter implements Reporter {
  private readonly file = process.env[EVENTS_ENV];

  private write(event: TestEvent): void {
    if (this.file !== undefined) appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }

  onTestModuleCollected(module: TestModule): void {
    const tests = [...module.children.allTests()]
      .filter((t) => t.options.mode !== "skip" && t.options.mode !== "todo")
      .map((t) => ({ id: t.id, name: t.fullName, line: t.location?.line ?? 0 }));
    this.write({ event: "collected", file: module.moduleId, tests });
  }

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    this.write({ event: "end", id: test.id, state: result.state, errors: (result.errors ?? []).map(info) });
  }

  onTestModuleEnd(module: TestModule): void {
    this.write({ event: "file-end", file: module.moduleId });
  }

  onTestRunEnd(_modules: readonly TestModule[], unhandled: readonly SerializedError[]): void {
    this.write({ event: "done", errors: unhandled.map(info) });
  }
}
