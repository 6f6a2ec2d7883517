package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorNames;
import picocli.CommandLine.Option;

/**
 * Where an operator command works: a deployed stage, found by {@code --stage NAME} through its stack's
 * outputs ({@link StageDiscovery}; default credential chain and region), or an emulator
 * ({@code --endpoint}). A command that reads no table of its own ({@code logs}) takes only these; the
 * others take {@link StageOptions}, which adds the table names.
 */
public class StageTarget {

    /** The stage an emulator stands for when none is named. */
    public static final String EMULATOR_STAGE = "dev";

    @Option(
            names = "--stage",
            paramLabel = "NAME",
            description = "The deployed stage (its stack Punctual-NAME); required against AWS, dev with --endpoint")
    public String stage;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            description = "A local emulator (punctual emulator prints its URL), e.g. http://127.0.0.1:4566; commands"
                    + " then run in this JVM and create missing tables; default: the stage on AWS")
    public String endpoint;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            description = "The AWS profile whose credentials and region to use (default: AWS_PROFILE, then the"
                    + " default profile), as the AWS CLI reads ~/.aws/config and ~/.aws/credentials")
    String profile;

    @Option(
            names = "--region",
            paramLabel = "REGION",
            description = "AWS region (default: AWS_REGION, or us-east-1 with --endpoint)")
    public String region;

    /** Whether the command works on an emulator ({@code --endpoint}) rather than a deployed stage. */
    public boolean emulator() {
        return endpoint != null && !endpoint.isBlank();
    }

    /**
     * The stage's name: required against AWS, so that no command lands on a stage nobody named; an
     * emulator stands for {@value #EMULATOR_STAGE} unless told otherwise.
     */
    public String stageName() {
        return stageName(true);
    }

    /** @param offerEmulator whether the refusal may suggest {@code --endpoint} (not for a command that refuses it) */
    public String stageName(boolean offerEmulator) {
        if (stage != null) {
            // Given is given: an empty or malformed name is refused, never read as "no stage" (dev).
            return OperatorNames.stage("--stage", stage);
        }
        if (emulator()) {
            return EMULATOR_STAGE;
        }
        throw new OperatorInputException("--stage: required against AWS (no default, so that a command never"
                + " lands on a stage nobody named); accepted: a deployed stage, e.g. --stage dev"
                + (offerEmulator ? ", or --endpoint URL for a local emulator" : ""));
    }
}
