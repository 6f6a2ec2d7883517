package dev.punctual.infra;

import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.constructs.Construct;

/** One stage of Punctual: its tables and, as the catalog grows, its functions and schedules. */
public final class StageStack extends Stack {

    private final LedgerTables tables;

    public StageStack(Construct scope, String id, StackProps props, StageConfig config) {
        super(scope, id, props);
        this.tables = new LedgerTables(this, "Tables", config);
        Tags.of(this).add("punctual:stage", config.stage());
    }

    public LedgerTables tables() {
        return tables;
    }
}
