// 每课每处空白至少一个「看着像对、其实错了」的写法：在这一课自己的代码上打一个小补丁，落在那一处空白里。练习模式的证明
// （tests/practice/exercises.proof.ts）把它放进「前面的阶段写对了、这一处所在的阶段写错了、后面的还空着」的练习文件，要看到 check
// 停在这一处所在的阶段（不是更后面），被管这个机制的那个测试拦下，「再读」指着这一处空白的 README 小节——
// 证明每个阶段真的在检查它自己的函数，不是只要文件能跑就算过，也证明指路指的是错处。
// 数据按课分在 s01-s07.ts、s08-s12.ts；这里是一行的形状和把它打进练习文件的办法。
import { stageOfStub, stubsThrough } from "../../../tooling/practice/stage-lookup.ts";
import { makePractice } from "../../../tooling/practice/stub.ts";
import { MISTAKES_S01_S07 } from "./s01-s07.ts";
import { MISTAKES_S08_S12 } from "./s08-s12.ts";

export type PracticeMistake = {
  lesson: string;
  /** 错在哪一处空白（makePractice 的 Stub.name）：补丁得落在它挖掉的代码里，它所在的阶段就是 check 该停的阶段。 */
  stub: string;
  /** 学习者可能犯的错，一句话。 */
  mistake: string;
  /** 在这一课的 code.ts 里把 find（必须恰好出现一次）换成 replace。 */
  find: string;
  replace: string;
  /** check 的报告里第一个没过的那一段（标题加细节）要对得上它。 */
  caught: RegExp;
  /** 这个写法让 check 卡住（永远跑不完）：证明照学习者的 npm run check 那样等 10 秒，不等防卡死的上限。 */
  hangs?: true;
};

/**
 * 每课每处空白至少一个（同名的几段算一处）。s05 的 executeToolCall、s09 的 use 和 emit 多几个：issue 31 试出来的、
 * 原来拦在后面阶段或者指错了小节的那几种写法。
 */
export const PRACTICE_MISTAKES: readonly PracticeMistake[] = [...MISTAKES_S01_S07, ...MISTAKES_S08_S12];

/** 错处所在的阶段（从 1 起）；阶段表里没有这一处空白就报错。 */
function stageOfMistake(m: PracticeMistake): number {
  const at = stageOfStub(m.lesson, m.stub);
  if (at === undefined) throw new Error(`${m.lesson} mistake "${m.mistake}": no stage has the stub ${m.stub}`);
  return at.number;
}

/**
 * 做错了一处的练习文件：错处所在阶段和前面的阶段都填好，错处填上打了补丁的写法，后面的阶段还空着。
 * find 没有恰好出现一次、或者不在这一处空白挖掉的代码里就报错：课的代码变了，补丁得跟着改。
 */
export function mistakenPractice(m: PracticeMistake): string {
  const where = `${m.lesson} ${m.stub} mistake "${m.mistake}"`;
  const stage = stageOfMistake(m);
  const text = makePractice(m.lesson, { filled: stubsThrough(m.lesson, stage) }).text;
  const count = text.split(m.find).length - 1;
  if (count !== 1) throw new Error(`${where}: the patch target occurs ${count} times in the practice file (need exactly 1)`);
  const inside = makePractice(m.lesson, { verify: false }).stubs.some((s) => s.name === m.stub && s.code.includes(m.find));
  if (!inside) throw new Error(`${where}: the patch target is not inside the code the stub ${m.stub} leaves out`);
  return text.replace(m.find, () => m.replace);
}
