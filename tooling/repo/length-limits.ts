// 两条长度上限（tests/house.test.ts 查）：源文件不超过 450 行，一个测试体（`it`、`test` 的回调）不超过 60 行。
// 超了就说明一个文件管了几件事、一个测试测了几样东西，该拆了。
// 不算源文件的：生成的数据（由 npm run gen:* 重写）、锁文件、课的 code.ts（课文本身就是课程，不归这两条管），和 Markdown 文档。
import ts from "typescript";
import { testCallRoot } from "../time-limits.ts";

export const MAX_FILE_LINES = 450;
export const MAX_TEST_BODY_LINES = 60;

/** 生成的数据和锁文件：不归行数上限管。 */
const GENERATED: readonly RegExp[] = [
  /^tests\/api\/[^/]+\.json$/,
  /^tests\/golden\/[^/]+\.json$/,
  /^site\/replay\/[^/]+\.json$/,
  /^tooling\/practice\/stage-tests\.json$/,
  /^tooling\/pi-index\.json$/,
  /^fidelity\/DIFFERENCES\.md$/,
  /(^|\/)package-lock\.json$/,
];
/** 课的 code.ts（s01_one_turn/code.ts …）。 */
const LESSON_CODE = /^s\d\d_[^/]+\/code\.ts$/;

/** 这个文件（相对仓库根）归不归「不超过 450 行」管：Markdown 文档、生成的数据、锁文件、课的 code.ts 不归。 */
export const isHouseSource = (path: string): boolean => !path.endsWith(".md") && !LESSON_CODE.test(path) && !GENERATED.some((re) => re.test(path));

/** 文件有几行（最后一行没有换行也算一行）。 */
export const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

/** 超过上限的文件，一个一行：`路径: N lines (max 450)`。files 是 [路径, 内容]。 */
export function longFiles(files: Iterable<readonly [string, string]>, max = MAX_FILE_LINES): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    const n = lineCount(text);
    if (isHouseSource(path) && n > max) out.push(`${path}: ${n} lines (max ${max})`);
  }
  return out;
}

/** 测试文件：vitest 跑的 *.test.ts、练习模式和毕业练习的 *.proof.ts、浏览器测试的 *.e2e.ts；课的文件夹里的不算。 */
export const isTestFile = (path: string): boolean => /\.(test|proof|e2e)\.ts$/.test(path) && !/^s\d\d_/.test(path);

/**
 * 一个测试文件里超过上限的测试体，一个一行：`行号: 标题的开头 (N lines, max 60)`。测试体是 `it(…)`、`test(…)`（也包括
 * `it.each(…)(…)`、`it.fails`、`test.concurrent` 这些写法）的回调，从回调开头那一行数到结尾那一行。在语法树上找，注释和字符串里的不算。
 */
export function longTestBodies(source: string, max = MAX_TEST_BODY_LINES): string[] {
  const file = ts.createSourceFile("test.ts", source, ts.ScriptTarget.Latest, true);
  const line = (pos: number): number => file.getLineAndCharacterOfPosition(pos).line + 1;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ["it", "test"].includes(testCallRoot(node.expression) ?? "")) {
      const body = node.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (body !== undefined) {
        const n = line(body.getEnd()) - line(body.getStart(file)) + 1;
        const title = node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0]) ? node.arguments[0].text : node.arguments[0]?.getText(file) ?? "";
        if (n > max) found.push(`${line(node.getStart(file))}: ${title.slice(0, 40)} (${n} lines, max ${max})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
