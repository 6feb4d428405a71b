// 坏输入表：一轮本身——开局备不齐这一轮的输入（registry、项目资料）、一轮没跑完又来一轮、会话树挪到不存在的地方。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { describeError } from "../../tooling/lesson.ts";
import { assistant as a, text, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, brokenForOneTurn } from "./harness.ts";

export const ROWS_TURN: Row[] = [
  // ── 开局备不齐这一轮的输入（R4 第 7 类，s06 起，D31）：拍快照之前要的东西有一样抛错 ──
  brokenForOneTurn(
    "registry-throws-at-snapshot",
    "s06",
    "registry.getSpecs() 抛错（调用方换上的 registry 坏了）",
    "registry",
    {
      getSpecs: () => {
        throw new Error("registry is gone");
      },
    },
    "error: could not start the turn: registry is gone",
  ),

  // ── 开局读项目资料失败（R4 第 7 类，s08 起，D29） ──
  brokenForOneTurn(
    "loader-throws",
    "s08",
    "loader.load() 抛错（读项目资料失败）",
    "loader",
    {
      load: () => {
        throw new Error("disk on fire");
      },
    },
    "error: could not start the turn: disk on fire",
  ),

  // ── 一次一轮（R4 第 9 类，s04 起，D33） ──
  {
    id: "two-turns-at-once",
    since: "oneTurn",
    input: "同一个 agent 上不等第一轮跑完就发起第二轮",
    async run(h) {
      const b = h.agent({ responses: [text("answer A"), text("answer C")] });
      const [first, second] = await Promise.all([h.mod.runOneTurn(b.agent, "A"), h.mod.runOneTurn(b.agent, "B")]);
      await h.mod.runOneTurn(b.agent, "C");
      return { first, second, messages: b.all() };
    },
    expected: {
      first: a("answer A"),
      second: a("error: agent is already processing a prompt", "error"),
      messages: [u("A"), a("answer A"), u("C"), a("answer C")],
    },
  },

  // ── 会话树（s07 起） ──
  {
    id: "moveTo-unknown",
    since: "s07",
    input: "moveTo 一个不存在的 id",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still here")] });
      await h.mod.runOneTurn(b.agent, "first");
      const tree = b.agent.state.messages;
      if (Array.isArray(tree)) throw new Error("no tree");
      const before = JSON.stringify([tree.allEntries(), tree.currentPath()]);
      let error: string | undefined;
      try {
        tree.moveTo("e99");
      } catch (e) {
        error = describeError(e);
      }
      const unchanged = JSON.stringify([tree.allEntries(), tree.currentPath()]) === before;
      await h.mod.runOneTurn(b.agent, "second");
      return { error, unchanged, path: tree.currentPath() };
    },
    expected: { error: 'moveTo: no entry with id "e99"', unchanged: true, path: [...FIRST, u("second"), a("still here")] },
  },
];
