// 测试或钩子撞上防卡死的上限（tooling/hang-guard.ts）时，把 vitest 那句「长的测试就把上限调大」换成「这是防卡死的上限，它卡住了」。
// 测试的报错在 afterEach 里改（这时报错已经记下、结果还没发给 reporter），文件级钩子的报错在文件的 afterAll 里改。
// 每个测试文件都得登记一次：npm test 的 setup.ts 调 explainHangGuard()，练习模式的证明和浏览器测试的配置用 hang-guard-setup.ts。
// 不在这个模块求值时登记：vitest.config.ts 的 isolate: false 下，一个 worker 里它只求值一次，只有第一个文件登记得上。
import { afterAll, afterEach } from "vitest";
import { explainTimeout } from "../../tooling/hang-guard.ts";

type Errors = { message?: unknown; stack?: unknown }[] | undefined;
type Task = { result?: { errors?: Errors }; tasks?: Task[] };

/** 把一组报错里 vitest 的超时报错改写掉（message 和 stack 里开头的那段都改）。 */
export function explainTimeouts(errors: Errors): void {
  for (const error of errors ?? []) {
    if (typeof error.message !== "string") continue;
    const explained = explainTimeout(error.message);
    if (explained === error.message) continue;
    if (typeof error.stack === "string") error.stack = error.stack.replace(error.message, explained);
    error.message = explained;
  }
}

function explainTree(task: Task): void {
  explainTimeouts(task.result?.errors);
  for (const child of task.tasks ?? []) explainTree(child);
}

/** 给当前这个测试文件登记改写。 */
export function explainHangGuard(): void {
  afterEach(({ task }) => explainTimeouts(task.result?.errors));
  afterAll(({}, file) => explainTree(file as Task));
}
