// 性质测试（fast-check）：README 说「交出去的是拷贝」的地方，调用方怎么改拿到的东西都改不到里面。
// s07 起 SessionTree（s07 README「SessionTree：挂节点、挪指针」「currentPath」）：同样的 append / moveTo 序列长两棵树：一棵树交出来的每样东西（append 回的节点、allEntries 的数组和里面的节点、currentPath 的消息）
// 都被随便改一通——改字段、删键、塞嵌套对象再改它、往数组里 push、排序、清空、换原型——另一棵谁也不碰。
// 两棵树必须一模一样：全部节点、当前路径、renderTree 画出来的样子，和下一轮 provider 收到的请求。
// s08 起 ResourceLoader.load（s08 README「交出去的是拷贝」）：改了 load 交出的数组和资料，下一次 load 和下一轮的系统提示照旧。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { LessonModule, Msg, Tree } from "../../tooling/lesson.ts";
import { text } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { params, str } from "./common.ts";

// ── 怎么改交出来的东西 ───────────────────────────────────
/** 节点和消息上的键：它们自己的字段、别的键、摸得到原型的键。 */
const keyArb = fc.constantFrom("id", "parentId", "role", "content", "stopReason", "toolCallId", "extra", "constructor", "toString");
/** 塞进去的值：普通值、嵌套的对象和数组。 */
const valueArb: fc.Arbitrary<unknown> = fc.oneof(str, fc.constant(null), fc.constant(undefined), fc.integer(), fc.constantFrom("user", "assistant", "toolResult", "e1", "e2"), fc.constant({ nested: { deep: ["x"] } }), fc.constant([1, [2]]));

type ObjectEdit =
  | { op: "set"; key: string; value: unknown }
  | { op: "delete"; key: string }
  /** 放一个嵌套对象进去，再改这个嵌套对象（拿着引用的调用方以后还能改它）。 */
  | { op: "nest"; key: string; value: unknown }
  | { op: "proto" }
  | { op: "freeze" };
const objectEditArb: fc.Arbitrary<ObjectEdit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("set" as const), key: keyArb, value: valueArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), key: keyArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("nest" as const), key: keyArb, value: valueArb }) },
  { weight: 1, arbitrary: fc.constant({ op: "proto" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "freeze" as const }) },
);

type ArrayEdit =
  | { op: "push" }
  | { op: "pop" | "shift" | "reverse" | "sort" | "clear" }
  | { op: "splice"; at: number }
  | { op: "replace"; at: number }
  | { op: "each"; edits: ObjectEdit[] };
const arrayEditArb: fc.Arbitrary<ArrayEdit> = fc.oneof(
  fc.constantFrom<ArrayEdit>({ op: "push" }, { op: "pop" }, { op: "shift" }, { op: "reverse" }, { op: "sort" }, { op: "clear" }),
  fc.nat(5).map((at) => ({ op: "splice" as const, at })),
  fc.nat(5).map((at) => ({ op: "replace" as const, at })),
  { weight: 3, arbitrary: fc.array(objectEditArb, { minLength: 1, maxLength: 4 }).map((edits) => ({ op: "each" as const, edits })) },
);

function editObject(target: Record<string, unknown>, edit: ObjectEdit): void {
  switch (edit.op) {
    case "set":
      target[edit.key] = edit.value;
      return;
    case "delete":
      delete target[edit.key];
      return;
    case "nest": {
      const nested: Record<string, unknown> = { inner: edit.value, list: [edit.value] };
      target[edit.key] = nested;
      nested.inner = "changed later";
      (nested.list as unknown[]).push("more");
      return;
    }
    case "proto":
      Object.setPrototypeOf(target, { role: "user", content: "from the prototype" });
      return;
    case "freeze":
      // 冻住的是交出来的东西；树以后还得照常往里挂节点
      Object.freeze(target);
  }
}

/** 改一个对象；冻住以后的写入在严格模式下会抛错，那是调用方自己的事，这里吞掉接着改。 */
function editAll(target: Record<string, unknown>, edits: readonly ObjectEdit[]): void {
  for (const edit of edits) {
    try {
      editObject(target, edit);
    } catch {
      // 冻住的对象改不动
    }
  }
}

function editArray(list: unknown[], edits: readonly ArrayEdit[]): void {
  for (const edit of edits) {
    try {
      if (edit.op === "push") list.push({ id: "e999", parentId: null, role: "user", content: "pushed" });
      else if (edit.op === "pop") list.pop();
      else if (edit.op === "shift") list.shift();
      else if (edit.op === "reverse") list.reverse();
      else if (edit.op === "sort") list.sort(() => -1);
      else if (edit.op === "clear") list.length = 0;
      else if (edit.op === "splice") list.splice(edit.at, 1, { id: "e1", parentId: "e1", role: "assistant", content: "spliced" });
      else if (edit.op === "replace") list[edit.at] = { id: "e1", parentId: null, role: "toolResult", content: "replaced", toolCallId: "x" };
      else if (edit.op === "each") for (const item of list) if (typeof item === "object" && item !== null) editAll(item as Record<string, unknown>, edit.edits);
    } catch {
      // 冻住的数组改不动
    }
  }
}

// ── 两棵树的剧本 ─────────────────────────────────────────
const msgArb: fc.Arbitrary<Msg> = fc.oneof(
  str.map((content) => ({ role: "user" as const, content })),
  fc.tuple(str, fc.constantFrom("stop", "toolUse", "error")).map(([content, stopReason]) => ({ role: "assistant" as const, content, stopReason })),
  fc.tuple(str, str).map(([content, toolCallId]) => ({ role: "toolResult" as const, content, toolCallId })),
);
type Step =
  | { op: "append"; msg: Msg; edits: ObjectEdit[] }
  | { op: "moveTo"; pick: number }
  | { op: "allEntries"; edits: ArrayEdit[] }
  | { op: "currentPath"; edits: ArrayEdit[] };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("append" as const), msg: msgArb, edits: fc.array(objectEditArb, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ op: "moveTo" as const, pick })) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("allEntries" as const), edits: fc.array(arrayEditArb, { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("currentPath" as const), edits: fc.array(arrayEditArb, { minLength: 1, maxLength: 4 }) }) },
);

/** 树现在的样子：全部节点、当前路径、renderTree 画出来的行。 */
function looks(mod: LessonModule, tree: Tree): unknown {
  const entries = tree.allEntries();
  return { entries: structuredClone(entries), path: structuredClone(tree.currentPath()), drawn: mod.renderTree(entries) };
}

/** 在这棵树上再跑一轮：provider 收到的第一个请求，和跑完以后树的样子。 */
async function nextTurn(id: string, mod: LessonModule, tree: Tree): Promise<unknown> {
  const { provider, inputs } = scriptedProvider(id, () => text("next answer"));
  const { agent } = makeAgent(id, mod, { provider });
  agent.state.messages = tree;
  const reply = await mod.runOneTurn(agent, "next question");
  return { request: inputs[0], reply, after: looks(mod, tree) };
}

forLessonsFrom("sessionTree", (id, load) => {
  it("append、allEntries、currentPath 交出去的都是拷贝：怎么改它们（字段、删键、嵌套对象、数组、原型），树都不变，下一轮的请求也不变", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 25 }), async (steps) => {
        const touched = new mod.SessionTree();
        const control = new mod.SessionTree();
        const ids: string[] = [];
        for (const step of steps) {
          if (step.op === "append") {
            const entry = touched.append(step.msg);
            ids.push(control.append(step.msg).id);
            editAll(entry as unknown as Record<string, unknown>, step.edits);
          } else if (step.op === "moveTo") {
            if (ids.length === 0) continue;
            const target = ids[step.pick % ids.length];
            touched.moveTo(target);
            control.moveTo(target);
          } else if (step.op === "allEntries") {
            editArray(touched.allEntries(), step.edits);
          } else {
            editArray(touched.currentPath(), step.edits);
          }
          fastExpect(looks(mod, touched), "the tree after its returned values were edited").toEqual(looks(mod, control));
        }
        fastExpect(await nextTurn(id, mod, touched), "the next turn on the edited tree").toEqual(await nextTurn(id, mod, control));
      }),
      params,
    );
  });
});

// ── s08 起：ResourceLoader.load 交出的是拷贝 ─────────────────
type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
const resourceArb: fc.Arbitrary<Resource> = fc.record({ kind: fc.constantFrom("agents" as const, "skill" as const, "prompt" as const), name: str, content: str });

forLessonsFrom("resources", (id, load) => {
  it("ResourceLoader.load 交出去的是拷贝：怎么改交出的数组和资料，下一次 load 和下一轮的系统提示都照旧", async () => {
    const mod = await load();
    const trust = has(id, "trust") ? "trusted" : undefined;
    await fc.assert(
      fc.asyncProperty(fc.array(resourceArb, { maxLength: 5 }), fc.array(fc.array(arrayEditArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }), async (resources, rounds) => {
        const run = async (edit: boolean): Promise<unknown> => {
          const { provider, inputs } = scriptedProvider(id, () => text("ok"));
          const { agent } = makeAgent(id, mod, { provider, resources: structuredClone(resources) });
          const loader = agent.loader;
          if (loader === undefined) throw new Error(`${id} has no loader`);
          if (edit) for (const edits of rounds) editArray(loader.load(trust), edits);
          await mod.runOneTurn(agent, "q");
          return { loaded: structuredClone(loader.load(trust)), systemPrompt: inputs[0]?.systemPrompt };
        };
        const edited = await run(true);
        fastExpect(edited, "after editing what load() handed out").toEqual(await run(false));
        fastExpect((edited as { loaded: unknown }).loaded).toEqual(resources);
      }),
      params,
    );
  });
});
