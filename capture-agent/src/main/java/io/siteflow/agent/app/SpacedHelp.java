package io.siteflow.agent.app;

import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.IParamLabelRenderer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Usage help that writes an option's value after a space ({@code -F CIDR}) while the parser's separator is
 * {@code =}, so that both {@code -F CIDR} and {@code -F=CIDR} are accepted. An option whose optional value is taken
 * only after {@code =} ({@link AttachedValueOnly}) keeps the sign: {@code --json[=FILE]}.
 */
final class SpacedHelp extends Help {
    /** {@code -i=IFACE} in a synopsis (picocli writes option groups without the label renderer). */
    private static final Pattern OPTION_EQUALS = Pattern.compile("(?<=[\\s(\\[|])(-{1,2}[A-Za-z][\\w-]*)=(?=[A-Z\\[])");

    SpacedHelp(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    @Override
    public String synopsis(int synopsisHeadingLength) {
        return OPTION_EQUALS.matcher(super.synopsis(synopsisHeadingLength)).replaceAll("$1 ");
    }

    @Override
    public IParamLabelRenderer parameterLabelRenderer() {
        return createDefaultParamLabelRenderer();
    }

    @Override
    public IParamLabelRenderer createDefaultParamLabelRenderer() {
        IParamLabelRenderer equalsSign = super.createDefaultParamLabelRenderer();
        return new IParamLabelRenderer() {
            @Override
            public Ansi.Text renderParameterLabel(ArgSpec arg, Ansi ansi, List<Ansi.IStyle> styles) {
                Ansi.Text t = equalsSign.renderParameterLabel(arg, ansi, styles);
                String plain = t.plainString();
                if (!arg.isOption() || !plain.startsWith("=") && !plain.startsWith("[=")
                        || arg.preprocessor() instanceof AttachedValueOnly) {
                    return t;
                }
                return ansi.apply(plain.startsWith("=") ? " " + plain.substring(1) : " [" + plain.substring(2), styles);
            }

            @Override
            public String separator() {
                return " ";
            }
        };
    }
}
