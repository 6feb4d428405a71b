// 每课每处空白至少一个「看着像对、其实错了」的写法：在这一课自己的代码上打一个小补丁，落在那一处空白里。练习模式的证明
// （tests/practice/exercises.proof.ts）把它放进「前面的阶段写对了、这一处所在的阶段写错了、后面的还空着」的练习文件，要看到 check
// 停在这一处所在的阶段（不是更后面），被管这个机制的那个测试拦下，「再读」指着这一处空白的 README 小节——
// 证明每个阶段真的在检查它自己的函数，不是只要文件能跑就算过，也证明指路指的是错处。
import { stageOfStub, stubsThrough } from "../../tooling/practice/stage-lookup.ts";
import { makePractice } from "../../tooling/practice/stub.ts";

export type Mistake = {
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
};

/**
 * 每课每处空白至少一个（同名的几段算一处）。s05 的 executeToolCall、s09 的 use 和 emit 多几个：issue 31 试出来的、
 * 原来拦在后面阶段或者指错了小节的那几种写法。
 */
export const MISTAKES: readonly Mistake[] = [
  {
    lesson: "s01",
    stub: "runOneTurn",
    mistake: "provider 抛错时不接住，让它一路抛出去",
    find: "assistant = { role: \"assistant\", content: `error: ${describeError(error)}`, stopReason: \"error\" };",
    replace: "throw error;",
    caught: /provider 抛错不外抛/,
  },
  {
    lesson: "s02",
    stub: "ToolRegistry.register",
    mistake: "同名工具再登记一次就悄悄覆盖旧的",
    find: "    if (this.tools.has(tool.spec.name)) {\n      throw new Error(`tool \"${tool.spec.name}\" is already registered`);\n    }\n",
    replace: "",
    caught: /同名|ToolRegistry 直接调用/,
  },
  {
    lesson: "s02",
    stub: "ToolRegistry.getSpecs",
    mistake: "清单交出去的是 registry 自己存的说明，拿到的人一改就改到了 registry",
    find: "    return [...this.tools.values()].map(({ spec }) => ({ ...spec, input: { ...spec.input } }));",
    replace: "    return [...this.tools.values()].map(({ spec }) => spec);",
    caught: /ToolRegistry 直接调用/,
  },
  {
    lesson: "s02",
    stub: "buildProviderInput",
    mistake: "请求里不带工具清单",
    find: "    tools: agent.registry.getSpecs(),\n",
    replace: "    tools: [],\n",
    caught: /工具|tools/,
  },
  {
    lesson: "s02",
    stub: "runOneTurn",
    mistake: "provider 回的不是文字也照单全收，转成字符串当回答存下",
    find: "    if (typeof text !== \"string\") throw new Error(`provider must return a string, got ${typeof text}`);\n    assistant = { role: \"assistant\", content: text, stopReason: \"stop\" };",
    replace: "    assistant = { role: \"assistant\", content: String(text), stopReason: \"stop\" };",
    caught: /provider|string|文字/,
  },
  {
    lesson: "s03",
    stub: "collectAssistantMessage",
    mistake: "流没发 message_end 就结束，当成正常说完",
    find: "return failed(\"stream ended without message_end\");",
    replace: "return { role: \"assistant\", content: parts.join(\"\"), stopReason: \"stop\" };",
    caught: /message_end/,
  },
  {
    lesson: "s03",
    stub: "runOneTurn",
    mistake: "请求不经 buildProviderInput，自己拼了一份只带历史的",
    find: "assistant = await collectAssistantMessage(provider.stream(buildProviderInput(agent)));",
    replace: "assistant = await collectAssistantMessage(provider.stream({ messages: buildProviderInput(agent).messages, tools: [] }));",
    caught: /工具|tools/,
  },
  {
    lesson: "s04",
    stub: "ToolRegistry.register",
    mistake: "登记时不复制，存的就是调用方交来的那个工具对象",
    find: "    const copy: Tool = { spec: { ...tool.spec, input: { ...tool.spec.input } }, handler: tool.handler };\n    this.tools.set(copy.spec.name, { tool: copy, args: argumentsSchema(copy.spec) });",
    replace: "    this.tools.set(tool.spec.name, { tool, args: argumentsSchema(tool.spec) });",
    caught: /ToolRegistry 直接调用/,
  },
  {
    lesson: "s04",
    stub: "ToolRegistry.getSpecs",
    mistake: "清单交出去的是 registry 自己存的说明",
    find: "    return [...this.tools.values()].map(({ tool: { spec } }) => ({ ...spec, input: { ...spec.input } }));",
    replace: "    return [...this.tools.values()].map(({ tool: { spec } }) => spec);",
    caught: /ToolRegistry 直接调用/,
  },
  {
    lesson: "s04",
    stub: "ToolRegistry.run",
    mistake: "handler 抛的错不接住，让它从 registry.run 里抛出去",
    find: "    } catch (error) {\n      return `error: ${describeError(error)}`;\n    }\n",
    replace: "    } catch (error) {\n      throw error;\n    }\n",
    caught: /ToolRegistry\.run 直接调用/,
  },
  {
    lesson: "s04",
    stub: "recordToolCalls",
    mistake: "信了 provider：事件不校验就记下调用",
    find: "    const event = parseProviderEvent(raw);\n    if (event.type === \"tool_call\") calls.push(event.call);",
    replace: "    const event = raw;\n    if (event.type === \"tool_call\") calls.push(event.call);",
    caught: /recordToolCalls/,
  },
  {
    lesson: "s04",
    stub: "runEventedToolLoop",
    mistake: "工具循环没有 maxTurns 上限，模型一直要工具就一直跑",
    find: "for (let turn = 0; turn < maxTurns; turn++) {",
    replace: "for (;;) {",
    caught: /卡住了/,
  },
  {
    lesson: "s04",
    stub: "buildProviderInput",
    mistake: "历史原样交给 provider：助手回答的 stopReason 也跟着发了出去",
    find: "    messages: agent.state.messages.map((m): ProviderMessage =>\n      m.role === \"toolResult\" ? { role: m.role, toolCallId: m.toolCallId, content: m.content } : { role: m.role, content: m.content },\n    ),",
    replace: "    messages: agent.state.messages.map((m): ProviderMessage => ({ ...m })),",
    caught: /buildProviderInput 直接调用/,
  },
  {
    lesson: "s04",
    stub: "runOneTurn",
    mistake: "不查给的是不是文字，拿到什么都当用户的话存下",
    find: "  if (typeof userInput !== \"string\") return refusedTurn(`user input must be a string, got ${typeof userInput}`);\n",
    replace: "",
    caught: /runOneTurn 直接调用/,
  },
  {
    lesson: "s05",
    stub: "executeToolCall",
    mistake: "结果的 id 用的时候才从 call 上读，钩子改了 call.id 就对不上了",
    find: "  const id = call.id;\n  const result = (content: string): ToolResultMessage => ({ role: \"toolResult\", toolCallId: id, content });",
    replace: "  const result = (content: string): ToolResultMessage => ({ role: \"toolResult\", toolCallId: call.id, content });",
    caught: /executeToolCall 直接调用/,
  },
  {
    lesson: "s05",
    stub: "executeToolCall",
    mistake: "afterToolCall 回的不是文字时自己写了一句报错，漏了「, expected a string」",
    find: "expectText(hooks.afterToolCall(call, raw), \"hook failed: afterToolCall\")",
    replace: "((out: unknown) => (typeof out === \"string\" ? out : `error: hook failed: afterToolCall returned ${describeValue(out)}`))(hooks.afterToolCall(call, raw))",
    caught: /executeToolCall 的 afterToolCall/,
  },
  {
    lesson: "s05",
    stub: "executeToolCall",
    mistake: "afterToolCall 回的不是文字时自己写了报错，没接住 async 钩子后来的失败",
    find: "expectText(hooks.afterToolCall(call, raw), \"hook failed: afterToolCall\")",
    replace: "((out: unknown) => (typeof out === \"string\" ? out : `error: hook failed: afterToolCall returned ${describeValue(out)}, expected a string`))(hooks.afterToolCall(call, raw))",
    caught: /executeToolCall 的 afterToolCall/,
  },
  {
    lesson: "s05",
    stub: "executeToolCall",
    mistake: "拦下的调用也把 error: blocked 交给 afterToolCall 再改一遍",
    find: "    if (decision.type === \"block\") return result(`error: blocked: ${decision.reason}`);\n    const raw = registry.run(call);",
    replace: "    const raw = decision.type === \"block\" ? `error: blocked: ${decision.reason}` : registry.run(call);",
    caught: /executeToolCall 的 beforeToolCall/,
  },
  {
    lesson: "s05",
    stub: "runEventedToolLoop",
    mistake: "循环照旧直接调 registry.run，钩子被绕过去",
    find: "        const result = executeToolCall(registry, hooks, call);",
    replace: "        const result: ToolResultMessage = { role: \"toolResult\", toolCallId: call.id, content: registry.run(call) };",
    caught: /block|拦下/,
  },
  {
    lesson: "s06",
    stub: "createTurnSnapshot",
    mistake: "快照只复制了最外面一层，历史数组还是同一个",
    find: "  return structuredClone(input);",
    replace: "  return { ...input };",
    caught: /createTurnSnapshot/,
  },
  {
    lesson: "s06",
    stub: "buildProviderInput",
    mistake: "请求里不带工具清单",
    find: "  return { messages: agent.state.messages.map(toProviderMessage), tools: agent.registry.getSpecs() };",
    replace: "  return { messages: agent.state.messages.map(toProviderMessage), tools: [] };",
    caught: /buildProviderInput 直接调用/,
  },
  {
    lesson: "s06",
    stub: "toProviderMessage",
    mistake: "消息原样交给 provider，助手回答的 stopReason 也跟着发了出去",
    find: "  return m.role === \"toolResult\" ? { role: m.role, toolCallId: m.toolCallId, content: m.content } : { role: m.role, content: m.content };",
    replace: "  return { ...m };",
    caught: /toProviderMessage 直接调用/,
  },
  {
    lesson: "s06",
    stub: "runEventedToolLoop",
    mistake: "拍了快照却不用，每次请求照旧现拼输入",
    find: "      const request = copyProviderInput({ ...snapshot, messages: [...snapshot.messages, ...turnMessages] });",
    replace: "      const request = copyProviderInput(buildProviderInput(agent));",
    caught: /一轮之内/,
  },
  {
    lesson: "s07",
    stub: "SessionTree.append",
    mistake: "append 交回的是树里存的那个节点，调用方一改就改到了树",
    find: "    return { ...entry };",
    replace: "    return entry;",
    caught: /拷贝/,
  },
  {
    lesson: "s07",
    stub: "SessionTree.moveTo",
    mistake: "moveTo 不查 id，挪到不存在的节点也照办",
    find: "    if (!this.entries.has(id)) throw new Error(`moveTo: no entry with id \"${id}\"`);\n",
    replace: "",
    caught: /SessionTree/,
  },
  {
    lesson: "s07",
    stub: "SessionTree.allEntries",
    mistake: "allEntries 交出的是树里存的那些节点",
    find: "    return [...this.entries.values()].map((entry) => ({ ...entry }));",
    replace: "    return [...this.entries.values()];",
    caught: /拷贝/,
  },
  {
    lesson: "s07",
    stub: "SessionTree.currentPath",
    mistake: "currentPath 从叶子往回走，忘了把顺序倒过来",
    find: "return path.reverse();",
    replace: "return path;",
    caught: /currentPath|路径|从根到叶子/,
  },
  {
    lesson: "s07",
    stub: "toAgentMessage",
    mistake: "还原助手回答时 stopReason 一律写成 stop",
    find: "      return { role: \"assistant\", content: entry.content, stopReason: entry.stopReason ?? \"stop\" };",
    replace: "      return { role: \"assistant\", content: entry.content, stopReason: \"stop\" };",
    caught: /toAgentMessage|currentPath|stopReason/,
  },
  {
    lesson: "s07",
    stub: "buildProviderInput",
    mistake: "发给模型的是整棵树的所有节点，而不是当前路径",
    find: "  return { messages: agent.state.messages.currentPath().map(toProviderMessage), tools: agent.registry.getSpecs() };",
    replace: "  return { messages: agent.state.messages.allEntries().map((e) => toProviderMessage(toAgentMessage(e))), tools: agent.registry.getSpecs() };",
    caught: /路径|分支|branch|moveTo/,
  },
  {
    lesson: "s07",
    stub: "runEventedToolLoop › store",
    mistake: "把回答推进了 currentPath 交出来的那个数组，树上什么都没挂",
    find: "      state.messages.append(message);",
    replace: "      void state.messages.currentPath().push(message);",
    caught: /"assistant"/,
  },
  {
    lesson: "s07",
    stub: "runOneTurn",
    mistake: "把用户的话推进了 currentPath 交出来的那个数组，树上什么都没挂",
    find: "  agent.state.messages.append({ role: \"user\", content: userInput });",
    replace: "  void agent.state.messages.currentPath().push({ role: \"user\", content: userInput });",
    caught: /"user"/,
  },
  {
    lesson: "s08",
    stub: "ResourceLoader.load",
    mistake: "load 交出的是 loader 自己存的那些对象，调用方一改就改到了 loader",
    find: "    return this.resources.map((resource) => ({ ...resource }));",
    replace: "    return [...this.resources];",
    caught: /ResourceLoader\.load/,
  },
  {
    lesson: "s08",
    stub: "buildSystemPrompt",
    mistake: "追加提示只取最后一份，没有追加提示时把 undefined 拼进了系统提示",
    find: "  sections.push(...of(\"prompt\").map((r) => r.content.trim()));",
    replace: "  sections.push(of(\"prompt\").at(-1)?.content.trim() as string);",
    caught: /undefined/,
  },
  {
    lesson: "s08",
    stub: "buildProviderInput",
    mistake: "请求里忘了带系统提示",
    find: "    systemPrompt: buildSystemPrompt(agent.loader.load()),\n",
    replace: "    systemPrompt: buildSystemPrompt([]),\n",
    caught: /系统提示|systemPrompt/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.use",
    mistake: "扩展装到一半抛错，记下错误却忘了 return，半截登记照样生效",
    find: "      this.errors.push(`error: extension \"${name}\" failed to load: ${describeError(error)}`);\n      return;\n",
    replace: "      this.errors.push(`error: extension \"${name}\" failed to load: ${describeError(error)}`);\n",
    caught: /ExtensionRuntime\.use 直接调用/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.use",
    mistake: "提交前不再对一遍名字：装的时候别的扩展先占了名字，registry.register 就从 use 里抛了出去",
    find: "      // 真正装之前再对一次名字：扩展在装的时候可能又 use 了别的扩展，把名字先占了\n      const now = new Set(this.registry.getSpecs().map((spec) => spec.name));\n      for (const tool of tools) if (now.has(tool.spec.name)) throw new Error(`tool \"${tool.spec.name}\" is already registered`);\n      for (const cmd of commands) if (this.commands.has(cmd.name)) throw new Error(`command \"${cmd.name}\" is already registered`);\n",
    replace: "",
    caught: /ExtensionRuntime\.use 的重名/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.use",
    mistake: "装完以后没把 loading 关上，扩展存起来的 api 过后还能登记",
    find: "    } finally {\n      loading = false;\n    }\n",
    replace: "    }\n",
    caught: /ExtensionRuntime\.use 的关卡/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.use",
    mistake: "async 扩展自己拦下了，却没接住它那个 Promise 后来的失败",
    find: "      expectNotPromise(returned);",
    replace: "      if (returned instanceof Promise) throw new Error(\"it returned a Promise; an extension must register everything before it returns\");",
    caught: /ExtensionRuntime\.use 的关卡/,
  },
  {
    lesson: "s09",
    stub: "ToolRegistry.register",
    mistake: "登记前不过 parseTool，形状不对的工具也收下",
    find: "    const checked = parseTool(tool);\n    if (this.tools.has(checked.spec.name)) {",
    replace: "    const checked = tool;\n    if (this.tools.has(checked.spec.name)) {",
    caught: /形状不对|invalid tool|ToolRegistry 直接调用/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.emit",
    mistake: "async 的处理函数后来失败了没人接，也没记进 errors",
    find: "        catchRejection(handler({ ...event }), failed);",
    replace: "        handler({ ...event });",
    caught: /emit 直接调用/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.emit",
    mistake: "每个处理函数拿到的是同一个事件对象，前一个改了，后一个看到的就是改过的",
    find: "        catchRejection(handler({ ...event }), failed);",
    replace: "        catchRejection(handler(event), failed);",
    caught: /emit 直接调用/,
  },
  {
    lesson: "s09",
    stub: "ExtensionRuntime.runCommand",
    mistake: "命令抛的错不接住，让它从 runCommand 里抛出去",
    find: "    } catch (error) {\n      return `error: command \"${name}\" failed: ${describeError(error)}`;\n    }\n",
    replace: "    } catch (error) {\n      throw error;\n    }\n",
    caught: /命令|command/,
  },
  {
    lesson: "s09",
    stub: "runEventedToolLoop",
    mistake: "一轮开不了头时直接返回那条出错的回答，没经过 finish，扩展等不到 done",
    find: "      return finish(failed);",
    replace: "      return failed;",
    caught: /done/,
  },
  {
    lesson: "s09",
    stub: "runEventedToolLoop › store",
    mistake: "store 存了消息却没广播，扩展听不到 message",
    find: "      runtime.emit({ type: \"message\", content: message.content });\n",
    replace: "",
    caught: /message|事件/,
  },
  {
    lesson: "s09",
    stub: "runEventedToolLoop › finish",
    mistake: "一轮收尾时忘了发 done",
    find: "      runtime.emit({ type: \"done\" });\n      return message;",
    replace: "      return message;",
    caught: /done/,
  },
  {
    lesson: "s10",
    stub: "runEventedToolLoop",
    mistake: "事件只攒进这一轮的 events，忘了照旧发给扩展",
    find: "      events.push(event);\n      runtime.emit(event);\n",
    replace: "      events.push(event);\n",
    caught: /on 注册的处理函数/,
  },
  {
    lesson: "s10",
    stub: "PrintMode.render",
    mistake: "PrintMode 把每条消息都打出来，而不是只打最终回答",
    find: "if (event.type === \"message\") last = event.content;",
    replace: "if (event.type === \"message\") this.output.log(event.content);",
    caught: /PrintMode|最终回答/,
  },
  {
    lesson: "s10",
    stub: "JsonMode.render",
    mistake: "JsonMode 把事件写成缩进的多行 JSON",
    find: "JSON.stringify(event).replace(",
    replace: "JSON.stringify(event, null, 2).replace(",
    caught: /JsonMode|JSON|一行/,
  },
  {
    lesson: "s11",
    stub: "ResourceLoader.load",
    mistake: "不信任的项目照样加载资料",
    find: "    if (trust !== \"trusted\") return [];\n",
    replace: "",
    caught: /不信任的项目/,
  },
  {
    lesson: "s11",
    stub: "buildProviderInput",
    mistake: "组装输入时不看 agent 的信任，一律当成信任",
    find: "    systemPrompt: buildSystemPrompt(agent.loader.load(agent.trust)),\n",
    replace: "    systemPrompt: buildSystemPrompt(agent.loader.load(\"trusted\")),\n",
    caught: /信任|trust/,
  },
  {
    lesson: "s12",
    stub: "loadPackage",
    mistake: "清单和内容对不上时抛的错没带包名，看不出是哪个包",
    find: "  } catch (error) {\n    throw new Error(`${where}: ${describeError(error)}`);\n  }",
    replace: "  } catch (error) {\n    throw error;\n  }",
    caught: /package|包/,
  },
  {
    lesson: "s12",
    stub: "pick",
    mistake: "清单里列了、内容里没有的名字不报错，取出来是 undefined",
    find: "    if (!Object.hasOwn(contents, name)) throw new Error(`${field} lists \"${name}\", but contents has no entry \"${name}\"`);\n",
    replace: "",
    caught: /contents|清单|lists/,
  },
  {
    lesson: "s12",
    stub: "resourceKind",
    mistake: "技能只看开头是不是 skills，少了那个斜杠",
    find: "  if (name.startsWith(\"skills/\")) return \"skill\";",
    replace: "  if (name.startsWith(\"skills\")) return \"skill\";",
    caught: /resourceKind|skills/,
  },
  {
    lesson: "s12",
    stub: "templateTool",
    mistake: "模板填参数时不查是不是参数自己的键，{constructor} 填进了 Object 的构造函数",
    find: "(_, p: string) => (Object.hasOwn(input, p) ? input[p] : \"\")",
    replace: "(_, p: string) => String(input[p] ?? \"\")",
    caught: /模板工具/,
  },
  {
    lesson: "s12",
    stub: "PackageResourceLoader.load",
    mistake: "叠一层的 loader 把包里的资料放在前面，包盖过了项目自己的同名技能",
    find: "    return [...loaded, ...super.load(trust).filter((r) => !taken.has(`${r.kind}:${r.name}`))];",
    replace: "    const mine = super.load(trust);\n    const ours = new Set(mine.map((r) => `${r.kind}:${r.name}`));\n    return [...mine, ...loaded.filter((r) => !ours.has(`${r.kind}:${r.name}`) || !taken.has(`${r.kind}:${r.name}`))];",
    caught: /叠一层的 loader/,
  },
  {
    lesson: "s12",
    stub: "installPackage",
    mistake: "装包时查了工具和命令重名，忘了查同名的包",
    find: "  if (agent.packages.includes(loaded.name)) refuse(\"a package with this name is already installed\");\n",
    replace: "",
    caught: /同名的包/,
  },
  {
    lesson: "s12",
    stub: "ExtensionRuntime.hasCommand",
    mistake: "hasCommand 查成了工具表",
    find: "    return this.commands.has(name);",
    replace: "    return this.registry.getSpecs().some((spec) => spec.name === name);",
    caught: /hasCommand|命令|command/,
  },
];

/** 错处所在的阶段（从 1 起）；阶段表里没有这一处空白就报错。 */
export function stageOfMistake(m: Mistake): number {
  const at = stageOfStub(m.lesson, m.stub);
  if (at === undefined) throw new Error(`${m.lesson} mistake "${m.mistake}": no stage has the stub ${m.stub}`);
  return at.number;
}

/**
 * 做错了一处的练习文件：错处所在阶段和前面的阶段都填好，错处填上打了补丁的写法，后面的阶段还空着。
 * find 没有恰好出现一次、或者不在这一处空白挖掉的代码里就报错：课的代码变了，补丁得跟着改。
 */
export function mistakenPractice(m: Mistake): string {
  const where = `${m.lesson} ${m.stub} mistake "${m.mistake}"`;
  const stage = stageOfMistake(m);
  const text = makePractice(m.lesson, { filled: stubsThrough(m.lesson, stage) }).text;
  const count = text.split(m.find).length - 1;
  if (count !== 1) throw new Error(`${where}: the patch target occurs ${count} times in the practice file (need exactly 1)`);
  const inside = makePractice(m.lesson, { verify: false }).stubs.some((s) => s.name === m.stub && s.code.includes(m.find));
  if (!inside) throw new Error(`${where}: the patch target is not inside the code the stub ${m.stub} leaves out`);
  return text.replace(m.find, () => m.replace);
}
