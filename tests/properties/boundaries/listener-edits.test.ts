// 性质测试（fast-check），R4 每道边界的第 10 类：监听改不了运行模式打印的东西（s10 起；s09 起别的监听也看不到改动）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { RuntimeEventLike } from "../../../tooling/lesson.ts";
import { text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { BOUNDARY_RUNS } from "../common.ts";

type EventEdit = "content" | "type" | "delete content" | "null prototype" | "extra field" | "freeze";
forLessonsFrom("extensions", (id, load) => {
  it("R4 第 10 类：监听随便改它收到的事件：别的监听收到的还是原样" + (has(id, "modes") ? "，运行模式打印的也还是原样" : ""), async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<EventEdit>("content", "type", "delete content", "null prototype", "extra field", "freeze"), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("print", "json"),
        async (edits, modeKind) => {
          const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("look", { id: "c1", name: "echo", input: { text: "x" } }) : text("final")));
          const out: string[] = [];
          const output = { log: (line: string) => void out.push(line) };
          const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool] });
          if (has(id, "modes")) agent.mode = modeKind === "json" ? new mod.JsonMode(output) : new mod.PrintMode(output);
          const seen: RuntimeEventLike[] = [];
          agent.runtime?.use((api) => {
            const vandal = (e: RuntimeEventLike): void => {
              const loose = e as Record<string, unknown>;
              for (const edit of edits) {
                if (edit === "content") loose.content = "VANDALISED";
                else if (edit === "type") loose.type = loose.type === "done" ? "message" : "done";
                else if (edit === "delete content") delete loose.content;
                else if (edit === "null prototype") Object.setPrototypeOf(e, null);
                else if (edit === "extra field") loose.extra = "x";
                else Object.freeze(e);
              }
            };
            api.on("message", vandal);
            api.on("done", vandal);
          });
          agent.runtime?.use((api) => {
            api.on("message", (e) => void seen.push({ ...e }));
            api.on("done", (e) => void seen.push({ ...e }));
          });
          await mod.runOneTurn(agent, "go");
          const events: RuntimeEventLike[] = [...messages().slice(1).map((m) => ({ type: "message" as const, content: m.content })), { type: "done" }];
          fastExpect(seen, "later listeners see the events as the loop sent them").toEqual(events);
          if (has(id, "modes")) {
            const expected: string[] = [];
            const fresh = modeKind === "json" ? new mod.JsonMode({ log: (l) => void expected.push(l) }) : new mod.PrintMode({ log: (l) => void expected.push(l) });
            fresh.render(events);
            fastExpect(out, "what the mode prints").toEqual(expected);
          }
          // 冻住之后再改，是这个监听自己在严格模式下抛错：记成它的错，别的不受影响
          for (const e of agent.runtime?.errors ?? []) fastExpect(e).toMatch(/^error: handler for "(message|done)" failed: /);
        },
      ),
      BOUNDARY_RUNS,
    );
  });
});
