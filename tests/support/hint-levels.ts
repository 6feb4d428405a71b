// 四级提示（D43）该守的规矩，练习模式（tests/practice/hints.test.ts）和毕业练习（tests/graduation/hints.test.ts）共用：
// 后一级露出的字是前一级的超集、而且严格更多；前三级不露答案里「露了就等于给了答案」的行；第 4 级是完整的原文；第 1 级没有代码块。
import { ELIDED } from "../../tooling/practice/hints.ts";

/**
 * 答案里「露了就等于给了答案」的行：有调用、取成员或赋值的代码行（注释、`}`、`try {` 这种不算），
 * 也不算小函数的签名行（`const finish = (m: AssistantMessage): AssistantMessage => {`，签名属于第 2 级）。
 * openers：以 `(` 或 `{` 收尾的行也不算（`pi.registerTool({`、`async execute(…) {`）——毕业练习的第 3 级故意露出调用的形状。
 */
function distinctiveLines(code: string, openers: boolean): string[] {
  return code
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length >= 12 && !/^(\/\/|\/?\*)/.test(l) && !/=>\s*\{$/.test(l))
    .filter((l) => !(openers && /[({]$/.test(l)))
    .filter((l) => /[\w$)\]]\(|[\w$)\]]\.[\w$#]|[^=!<>]=[^=>]/.test(l));
}

/** 只看代码字符：去掉空白和省略号。 */
const chars = (s: string): string => s.replace(new RegExp(`${ELIDED}|\\s`, "g"), "");
const isSubsequence = (a: string, b: string): boolean => {
  let i = 0;
  for (const c of b) if (c === a[i]) i++;
  return i === a.length;
};

/** 四级提示哪里不对：前一级露的不是后一级的一部分、后一级没多露、前三级露了答案的行、第 4 级不是完整的原文。 */
export function levelProblems(stub: { name: string; code: string }, levels: readonly [string, string, string, string], { openers = false }: { openers?: boolean } = {}): string[] {
  const out: string[] = [];
  const [l1, l2, l3, l4] = levels;
  if (l1.includes("```")) out.push(`${stub.name}: level 1 shows a code block`);
  for (const [i, text] of [l1, l2, l3].entries()) {
    for (const line of distinctiveLines(stub.code, openers)) if (text.includes(line)) out.push(`${stub.name}: level ${i + 1} shows the answer line ${line}`);
  }
  const [c2, c3, c4] = [chars(l2), chars(l3), chars(l4)];
  if (!(isSubsequence(c2, c3) && c2.length < c3.length)) out.push(`${stub.name}: level 3 does not show strictly more than level 2`);
  if (!(isSubsequence(c3, c4) && c3.length < c4.length)) out.push(`${stub.name}: level 4 does not show strictly more than level 3`);
  if (!c4.includes(chars(stub.code))) out.push(`${stub.name}: level 4 is not the whole answer`);
  return out;
}

