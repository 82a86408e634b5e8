package io.siteflow.agent.app;

import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * For an option with an optional value ({@code --json[=FILE]}): the value is taken only when attached with
 * {@code =}. Without it the option gets its fallback value and the next argument is left alone, so
 * {@code --json -Xlog:class+load} is refused as an unknown option instead of becoming a file name. A next argument
 * that is no option at all ({@code --json flows.jsonl}) is refused with a message that shows the right spelling,
 * since the capture command has no positional parameters.
 */
public final class AttachedValueOnly implements IParameterPreprocessor {
    @Override
    public boolean preprocess(Stack<String> args, CommandSpec commandSpec, ArgSpec argSpec, Map<String, Object> info) {
        if ("=".equals(info.get("separator"))) {
            return false; // --json=FILE: picocli takes FILE
        }
        OptionSpec option = (OptionSpec) argSpec;
        if (commandSpec.positionalParameters().isEmpty() && !args.isEmpty() && !args.peek().startsWith("-")) {
            String name = option.longestName();
            throw new ParameterException(commandSpec.commandLine(), name + " takes a value only after '=' ("
                    + name + "=" + args.peek() + "), not after a space: '" + args.peek() + "' is not an option");
        }
        argSpec.setValue(option.fallbackValue());
        return true;
    }
}
