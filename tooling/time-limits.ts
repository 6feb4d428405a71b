// 测试文件自己设的时间上限（tests/suite.test.ts 要求一个都没有）：npm test 的上限只有 tooling/hang-guard.ts 那一个，
// 由 vitest.config.ts 统一设；哪个文件另设一个更短的，机器一忙它就可能把没毛病的测试判成失败。
import ts from "typescript";

const TEST_CALLS = new Set(["it", "test", "describe", "suite", "bench", "beforeAll", "afterAll", "beforeEach", "afterEach", "aroundAll", "aroundEach"]);

/** `it.each(xs)(…)`、`describe.skip(…)` 这种写法最左边的名字（tooling/repo/length-limits.ts 也用它认测试）。 */
export function testCallRoot(expr: ts.Expression): string | undefined {
  let e: ts.Expression = expr;
  while (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

const hasProperty = (node: ts.Node | undefined, names: readonly string[]): boolean =>
  node !== undefined && ts.isObjectLiteralExpression(node) && node.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && names.includes(p.name.text));

/**
 * 一个测试文件自己设的时间上限，一处一行（`行号: 那一段代码`）：测试和钩子函数后面跟着的参数（`it(…, () => …, 60_000)`）、
 * 选项里的 timeout（`it(…, { timeout: 50 }, …)`），`vi.setConfig` 里的 testTimeout / hookTimeout，`expect.poll` 选项里的 timeout。
 * 在语法树上找，注释和字符串里的不算。
 */
export function ownTimeLimits(source: string): string[] {
  const file = ts.createSourceFile("test.ts", source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node): void => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push(`${line}: ${node.getText(file).split("\n")[0]}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = testCallRoot(node.expression);
      const callee = node.expression;
      if (name === "vi" && ts.isPropertyAccessExpression(callee) && callee.name.text === "setConfig" && hasProperty(node.arguments[0], ["testTimeout", "hookTimeout"])) report(node);
      // expect.poll(…, { timeout })：等到点就判失败，和测试自己的上限一样会被机器快慢左右（默认的上限由配置统一设成防卡死的那个）
      else if (name === "expect" && ts.isPropertyAccessExpression(callee) && callee.name.text === "poll" && node.arguments.some((a) => hasProperty(a, ["timeout"]))) report(node);
      else if (name !== undefined && TEST_CALLS.has(name) && !(ts.isPropertyAccessExpression(callee) && ["each", "for"].includes(callee.name.text))) {
        const fn = node.arguments.findIndex((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
        if ((fn !== -1 && fn < node.arguments.length - 1) || node.arguments.some((a) => hasProperty(a, ["timeout"]))) report(node);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
