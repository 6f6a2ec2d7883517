package dev.punctual.cli.verify;

import dev.punctual.infra.StageEnvironment;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;

/**
 * The credentials reach the account and region the stage is pinned to ({@code StageConfig.environment},
 * or {@code -c account= -c region=} at deploy time), and the stack found is in that account.
 */
public record CallerAccountCheck(
        String stage, StageEnvironment pinned, String callerAccount, String region, String stackAccount)
        implements Check {

    public static CallerAccountCheck read(StageAws aws, StageInventory deployed, StageEnvironment pinned) {
        GetCallerIdentityResponse caller = aws.sts().getCallerIdentity();
        return new CallerAccountCheck(
                deployed.stage(), pinned, caller.account(), aws.region().id(), deployed.account());
    }

    @Override
    public String name() {
        return "account";
    }

    @Override
    public CheckResult result() {
        String checked = "credentials' account and region are stage " + stage + "'s pinned ones";
        String seen = "account " + callerAccount + ", region " + region;
        if (pinned.account().filter(a -> !a.equals(callerAccount)).isPresent()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    seen + "; the stage is pinned to account "
                            + pinned.account().orElseThrow(),
                    "stop: these credentials reach another account; switch to the stage's (AWS_PROFILE, aws sso login)");
        }
        if (pinned.region().filter(r -> !r.equals(region)).isPresent()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    seen + "; the stage is pinned to region " + pinned.region().orElseThrow(),
                    "run verify with --region " + pinned.region().orElseThrow());
        }
        if (!stackAccount.isEmpty() && !stackAccount.equals(callerAccount)) {
            return CheckResult.fail(
                    name(),
                    checked,
                    seen + "; the stack is in account " + stackAccount,
                    "stop: check AWS_PROFILE; the stack and the credentials disagree");
        }
        if (pinned.account().isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    seen + "; stage " + stage + " is not pinned to an account",
                    "make sure this is the account you meant; pin the stage in Stages.java (StageConfig.pinnedTo)"
                            + " so a deploy elsewhere fails");
        }
        return CheckResult.pass(name(), checked, seen + " (pinned)");
    }
}
