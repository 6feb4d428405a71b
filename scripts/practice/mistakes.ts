// 每课每个阶段一个「看着像对、其实错了」的写法：在这一课自己的代码上打一个小补丁，落在那个阶段的空白里。练习模式的证明
// （tests/practice/exercises.proof.ts）把它放进「前面的阶段写对了、这个阶段写错了、后面的还空着」的练习文件，要看到 check
// 停在这个阶段，而且是被管这个机制的那个测试拦下——证明每个阶段真的在检查东西，不是只要文件能跑就算过。
import { stubsThrough } from "../../tooling/stages.ts";
import { makePractice } from "./stub.ts";

export type Mistake = {
  lesson: string;
  /** 错在第几个阶段（tooling/stages.ts，从 1 起）：补丁得落在这个阶段的空白里。 */
  stage: number;
  /** 学习者可能犯的错，一句话。 */
  mistake: string;
  /** 在这一课的 code.ts 里把 find（必须恰好出现一次）换成 replace。 */
  find: string;
  replace: string;
  /** check 的报告里第一个没过的那一段（标题加细节）要对得上它。 */
  caught: RegExp;
};

/** 每课每个阶段一个。 */
export const MISTAKES: readonly Mistake[] = [
  {
    lesson: "s01",
    stage: 1,
    mistake: "provider 抛错时不接住，让它一路抛出去",
    find: 'assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };',
    replace: "throw error;",
    caught: /provider 抛错不外抛/,
  },
  {
    lesson: "s02",
    stage: 1,
    mistake: "同名工具再登记一次就悄悄覆盖旧的",
    find: '    if (this.tools.has(tool.spec.name)) {\n      throw new Error(`tool "${tool.spec.name}" is already registered`);\n    }\n',
    replace: "",
    caught: /同名工具登记两次/,
  },
  {
    lesson: "s02",
    stage: 2,
    mistake: "请求里不带工具清单",
    find: "    tools: agent.registry.getSpecs(),\n",
    replace: "    tools: [],\n",
    caught: /工具|tools/,
  },
  {
    lesson: "s03",
    stage: 1,
    mistake: "流没发 message_end 就结束，当成正常说完",
    find: 'return failed("stream ended without message_end");',
    replace: 'return { role: "assistant", content: parts.join(""), stopReason: "stop" };',
    caught: /message_end/,
  },
  {
    lesson: "s03",
    stage: 2,
    mistake: "请求不经 buildProviderInput，自己拼了一份只带历史的",
    find: "assistant = await collectAssistantMessage(provider.stream(buildProviderInput(agent)));",
    replace: "assistant = await collectAssistantMessage(provider.stream({ messages: buildProviderInput(agent).messages, tools: [] }));",
    caught: /工具|tools/,
  },
  {
    lesson: "s04",
    stage: 1,
    mistake: "handler 抛的错不接住，让它从 registry.run 里抛出去",
    find: "    } catch (error) {\n      return `error: ${describeError(error)}`;\n    }\n",
    replace: "    } catch (error) {\n      throw error;\n    }\n",
    caught: /ToolRegistry\.run 直接调用/,
  },
  {
    lesson: "s04",
    stage: 2,
    mistake: "信了 provider：事件不校验就记下调用",
    find: "    const event = parseProviderEvent(raw);\n    if (event.type === \"tool_call\") calls.push(event.call);",
    replace: "    const event = raw;\n    if (event.type === \"tool_call\") calls.push(event.call);",
    caught: /recordToolCalls/,
  },
  {
    lesson: "s04",
    stage: 3,
    mistake: "工具循环没有 maxTurns 上限，模型一直要工具就一直跑",
    find: "for (let turn = 0; turn < maxTurns; turn++) {",
    replace: "for (;;) {",
    caught: /卡住了/,
  },
  {
    lesson: "s05",
    stage: 1,
    mistake: "钩子抛的错不接住，整轮跟着崩",
    find: "return result(`error: hook failed: ${describeError(error)}`);",
    replace: "throw error;",
    caught: /钩子抛错/,
  },
  {
    lesson: "s05",
    stage: 2,
    mistake: "循环照旧直接调 registry.run，钩子被绕过去",
    find: "        const result = executeToolCall(registry, hooks, call);",
    replace: '        const result: ToolResultMessage = { role: "toolResult", toolCallId: call.id, content: registry.run(call) };',
    caught: /block|拦下/,
  },
  {
    lesson: "s06",
    stage: 1,
    mistake: "快照只复制了最外面一层，历史数组还是同一个",
    find: "  return structuredClone(input);",
    replace: "  return { ...input };",
    caught: /createTurnSnapshot/,
  },
  {
    lesson: "s06",
    stage: 2,
    mistake: "拍了快照却不用，每次请求照旧现拼输入",
    find: "      const request = copyProviderInput({ ...snapshot, messages: [...snapshot.messages, ...turnMessages] });",
    replace: "      const request = copyProviderInput(buildProviderInput(agent));",
    caught: /一轮之内/,
  },
  {
    lesson: "s07",
    stage: 1,
    mistake: "moveTo 不查 id，挪到不存在的节点也照办",
    find: '    if (!this.entries.has(id)) throw new Error(`moveTo: no entry with id "${id}"`);\n',
    replace: "",
    caught: /SessionTree/,
  },
  {
    lesson: "s07",
    stage: 2,
    mistake: "currentPath 从叶子往回走，忘了把顺序倒过来",
    find: "return path.reverse();",
    replace: "return path;",
    caught: /user \+ assistant|从根到叶子|路径/,
  },
  {
    lesson: "s07",
    stage: 3,
    mistake: "发给模型的是整棵树的所有节点，而不是当前路径",
    find: "  return { messages: agent.state.messages.currentPath().map(toProviderMessage), tools: agent.registry.getSpecs() };",
    replace: "  return { messages: agent.state.messages.allEntries().map((e) => toProviderMessage(toAgentMessage(e))), tools: agent.registry.getSpecs() };",
    caught: /路径|分支|branch|moveTo/i,
  },
  {
    lesson: "s08",
    stage: 1,
    mistake: "load 交出的是 loader 自己存的那些对象，调用方一改就改到了 loader",
    find: "  load(): ContextResource[] {\n    return this.resources.map((resource) => ({ ...resource }));\n  }",
    replace: "  load(): ContextResource[] {\n    return [...this.resources];\n  }",
    caught: /ResourceLoader\.load/,
  },
  {
    lesson: "s08",
    stage: 2,
    mistake: "追加提示只取最后一份，没有追加提示时把 undefined 拼进了系统提示",
    find: '  sections.push(...of("prompt").map((r) => r.content.trim()));',
    replace: '  sections.push(of("prompt").at(-1)?.content.trim() as string);',
    caught: /undefined/,
  },
  {
    lesson: "s08",
    stage: 3,
    mistake: "请求里忘了带系统提示",
    find: "    systemPrompt: buildSystemPrompt(agent.loader.load()),\n",
    replace: "    systemPrompt: buildSystemPrompt([]),\n",
    caught: /系统提示|systemPrompt/,
  },
  {
    lesson: "s09",
    stage: 1,
    mistake: "扩展装到一半抛错，记下错误却忘了 return，半截登记照样生效",
    find: "      this.errors.push(`error: extension \"${name}\" failed to load: ${describeError(error)}`);\n      return;\n",
    replace: "      this.errors.push(`error: extension \"${name}\" failed to load: ${describeError(error)}`);\n",
    caught: /半|half|什么都不|不留下|不装/,
  },
  {
    lesson: "s09",
    stage: 2,
    mistake: "命令抛的错不接住，让它从 runCommand 里抛出去",
    find: "    } catch (error) {\n      return `error: command \"${name}\" failed: ${describeError(error)}`;\n    }\n",
    replace: "    } catch (error) {\n      throw error;\n    }\n",
    caught: /命令|command/,
  },
  {
    lesson: "s09",
    stage: 3,
    mistake: "一轮收尾时忘了发 done",
    find: '    const finish = (message: AssistantMessage): AssistantMessage => {\n      runtime.emit({ type: "done" });\n',
    replace: "    const finish = (message: AssistantMessage): AssistantMessage => {\n",
    caught: /done/,
  },
  {
    lesson: "s10",
    stage: 1,
    mistake: "事件只攒进这一轮的 events，忘了照旧发给扩展",
    find: "      events.push(event);\n      runtime.emit(event);\n",
    replace: "      events.push(event);\n",
    caught: /on 注册的处理函数/,
  },
  {
    lesson: "s10",
    stage: 2,
    mistake: "PrintMode 把每条消息都打出来，而不是只打最终回答",
    find: 'if (event.type === "message") last = event.content;',
    replace: 'if (event.type === "message") this.output.log(event.content);',
    caught: /PrintMode|最终回答/,
  },
  {
    lesson: "s10",
    stage: 3,
    mistake: "JsonMode 把事件写成缩进的多行 JSON",
    find: "JSON.stringify(event).replace(",
    replace: "JSON.stringify(event, null, 2).replace(",
    caught: /JsonMode|JSON|一行/,
  },
  {
    lesson: "s11",
    stage: 1,
    mistake: "不信任的项目照样加载资料",
    find: '    if (trust !== "trusted") return [];\n',
    replace: "",
    caught: /不信任的项目/,
  },
  {
    lesson: "s11",
    stage: 2,
    mistake: "组装输入时不看 agent 的信任，一律当成信任",
    find: "    systemPrompt: buildSystemPrompt(agent.loader.load(agent.trust)),\n",
    replace: '    systemPrompt: buildSystemPrompt(agent.loader.load("trusted")),\n',
    caught: /信任|trust/,
  },
  {
    lesson: "s12",
    stage: 1,
    mistake: "清单里列了、内容里没有的名字不报错，取出来是 undefined",
    find: '    if (!Object.hasOwn(contents, name)) throw new Error(`${field} lists "${name}", but contents has no entry "${name}"`);\n',
    replace: "",
    caught: /contents|清单|lists/,
  },
  {
    lesson: "s12",
    stage: 2,
    mistake: "模板填参数时不查是不是参数自己的键，{constructor} 填进了 Object 的构造函数",
    find: "(_, p: string) => (Object.hasOwn(input, p) ? input[p] : \"\")",
    replace: '(_, p: string) => String(input[p] ?? "")',
    caught: /模板工具/,
  },
  {
    lesson: "s12",
    stage: 3,
    mistake: "叠一层的 loader 把包里的资料放在前面，包盖过了项目自己的同名技能",
    find: "    return [...loaded, ...super.load(trust).filter((r) => !taken.has(`${r.kind}:${r.name}`))];",
    replace: "    const mine = super.load(trust);\n    const ours = new Set(mine.map((r) => `${r.kind}:${r.name}`));\n    return [...mine, ...loaded.filter((r) => !ours.has(`${r.kind}:${r.name}`) || !taken.has(`${r.kind}:${r.name}`))];",
    caught: /叠一层的 loader/,
  },
  {
    lesson: "s12",
    stage: 4,
    mistake: "装包时查了工具和命令重名，忘了查同名的包",
    find: '  if (agent.packages.includes(loaded.name)) refuse("a package with this name is already installed");\n',
    replace: "",
    caught: /同名的包/,
  },
];

/**
 * 第 m.stage 阶段做错了的练习文件：前面的阶段填好，这个阶段填上打了补丁的写法，后面的阶段还空着。
 * find 没有恰好出现一次、或者不在这个阶段的空白里（这个阶段还空着时它也在）就报错：课的代码变了，补丁得跟着改。
 */
export function mistakenPractice(m: Mistake): string {
  const where = `${m.lesson} stage ${m.stage} mistake "${m.mistake}"`;
  const text = makePractice(m.lesson, { filled: stubsThrough(m.lesson, m.stage) }).text;
  const count = text.split(m.find).length - 1;
  if (count !== 1) throw new Error(`${where}: the patch target occurs ${count} times in the practice file (need exactly 1)`);
  if (m.stage > 0 && makePractice(m.lesson, { verify: false, filled: stubsThrough(m.lesson, m.stage - 1) }).text.includes(m.find)) {
    throw new Error(`${where}: the patch target is not inside stage ${m.stage}'s stubs`);
  }
  return text.replace(m.find, () => m.replace);
}
