// vitest 的 setupFiles 之一（npm test、练习模式的证明、浏览器测试三份配置都用它）：测试或钩子撞上防卡死的上限
// （tooling/hang-guard.ts）时，把 vitest 那句「长的测试就把上限调大」换成「这是防卡死的上限，它卡住了」。
// 测试的报错在 afterEach 里改（这时报错已经记下、结果还没发给 reporter），文件级钩子的报错在文件的 afterAll 里改。
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

afterEach(({ task }) => explainTimeouts(task.result?.errors));
afterAll(({}, file) => explainTree(file as Task));
