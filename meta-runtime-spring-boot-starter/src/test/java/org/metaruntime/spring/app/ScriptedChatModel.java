package org.metaruntime.spring.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A chat model that answers from a script instead of an LLM: each call takes the next step, for example first a tool
 * call, then a text built from the tool's response. It keeps every prompt it was sent. Thread-safe enough for tests
 * (one conversation at a time).
 */
public final class ScriptedChatModel implements ChatModel {

    private final Deque<Function<Prompt, ChatResponse>> steps = new ArrayDeque<>();
    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    /** Replaces the script. */
    public synchronized ScriptedChatModel script(List<Function<Prompt, ChatResponse>> script) {
        steps.clear();
        steps.addAll(script);
        prompts.clear();
        return this;
    }

    /** The prompts received since the last {@link #script}. */
    public List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    /** Tool-calling options, so that a ChatClient hands the model its tool callbacks. */
    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatOptions getOptions() {
        return getDefaultOptions();
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        Function<Prompt, ChatResponse> step = steps.poll();
        if (step == null) {
            throw new IllegalStateException("the script has no more steps");
        }
        return step.apply(prompt);
    }

    /** A step that asks for one tool call. */
    public static Function<Prompt, ChatResponse> toolCall(String tool, String arguments) {
        return prompt -> new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", tool, arguments))).build())));
    }

    /** A step that answers with a text quoting the last tool response it was sent. */
    public static Function<Prompt, ChatResponse> answerWithToolResponse() {
        return prompt -> {
            List<Message> messages = prompt.getInstructions();
            Message last = messages.get(messages.size() - 1);
            String data = last instanceof ToolResponseMessage response
                    ? response.getResponses().get(0).responseData() : "no tool response";
            return new ChatResponse(List.of(new Generation(new AssistantMessage("the tool said: " + data))));
        };
    }
}
