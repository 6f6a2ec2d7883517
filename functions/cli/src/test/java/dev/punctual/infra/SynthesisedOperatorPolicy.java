package dev.punctual.infra;

import java.util.Set;
import software.amazon.awscdk.assertions.Template;

/**
 * The stage's operator policy as {@code cdk synth} writes it (the fixture catalog's stage {@code dev}),
 * for the CLI's CliWritesPolicyTest: its statements on the ledger, evaluated by infra's own
 * {@link LedgerPolicy} as IAM evaluates them for one item of a request (actions, {@code dynamodb:LeadingKeys},
 * {@code dynamodb:Attributes}). Public, in infra's package, because LedgerPolicy is that package's.
 */
public final class SynthesisedOperatorPolicy {

    private final LedgerPolicy ledger;

    private SynthesisedOperatorPolicy(LedgerPolicy ledger) {
        this.ledger = ledger;
    }

    /** Synthesises the stage (offline, in this JVM, with the repository's cdk.json) and reads the policy. */
    public static SynthesisedOperatorPolicy synthesise() {
        StageStack stage = Synth.stage("dev");
        Template template = Template.fromStack(stage);
        String ledgerId = Templates.logicalId(stage.tables().ledger());
        return new SynthesisedOperatorPolicy(
                LedgerPolicy.ofManagedPolicy(template, "StageOutputsOperatorPolicy", ledgerId));
    }

    /**
     * Whether the policy allows this access to one ledger item.
     *
     * @param action the IAM action, e.g. {@code dynamodb:UpdateItem} (a transaction's items each as theirs)
     * @param attributes every attribute name the request carries for the item (its key, a put's item,
     *     every name its expressions use): {@code dynamodb:Attributes}
     * @param returnValues {@code dynamodb:ReturnValues}, {@code NONE} when the request sets none
     */
    public boolean allows(
            String action, String partitionKey, String sortKey, Set<String> attributes, String returnValues) {
        return ledger.allows(new LedgerRequests.Access(action, partitionKey, sortKey, attributes, returnValues));
    }

    /** Every action some statement allows on the ledger. */
    public Set<String> ledgerActions() {
        return ledger.actions();
    }
}
