// 每个源文件开头的说明（tests/house.test.ts 查）：课文之外的 .ts / .js 文件开头都有一段注释说它是做什么的，用中文写
// （课程的工作语言，根 README「仓库布局」写着这条）。课的 code.ts 和 tests/fixtures/ 里照课的样子写的样例不归它管。
import ts from "typescript";

/** 归这条管的文件：课和样例之外的 .ts、.mts、.js、.mjs。 */
export const needsHeader = (path: string): boolean => /\.(m?ts|m?js)$/.test(path) && !/^s\d\d_/.test(path) && !path.startsWith("tests/fixtures/");

const CJK = /[\u4e00-\u9fff]/;

/** 文件开头的说明哪里不对；对了就是 undefined。开头的 `#!` 行跳过（从 0 读起时 TypeScript 自己会跳过它）。 */
export function headerProblem(text: string): string | undefined {
  const first = ts.getLeadingCommentRanges(text, 0)?.[0];
  if (first === undefined) return "opens with no comment saying what the file does";
  if (!CJK.test(text.slice(first.pos, first.end))) return "opens with a comment that is not written in Chinese";
  return undefined;
}
