package dev.punctual.infra;

import dev.punctual.stage.StageConfigException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The AWS account and region a stage is pinned to. A pinned stack carries them as its {@code env}, so
 * {@code cdk deploy} with credentials for another account fails before it changes anything; an
 * unpinned stack deploys wherever the CLI's credentials point.
 *
 * @param account a 12-digit account id, or empty
 * @param region a region name such as {@code eu-central-1}, or empty
 */
public record StageEnvironment(Optional<String> account, Optional<String> region) {

    public static final StageEnvironment UNPINNED = new StageEnvironment(Optional.empty(), Optional.empty());

    private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");
    private static final Pattern REGION = Pattern.compile("[a-z]{2,4}(-[a-z]+)+-\\d{1,2}");

    public StageEnvironment {
        account.filter(a -> !ACCOUNT.matcher(a).matches()).ifPresent(a -> {
            throw new StageConfigException("account", a, "a 12-digit AWS account id such as 123456789012");
        });
        region.filter(r -> !REGION.matcher(r).matches()).ifPresent(r -> {
            throw new StageConfigException("region", r, "an AWS region name such as eu-central-1");
        });
    }

    public static StageEnvironment of(String account, String region) {
        return new StageEnvironment(Optional.ofNullable(account), Optional.ofNullable(region));
    }

    public boolean accountPinned() {
        return account.isPresent();
    }

    /** This pin with each field given here (non-null) replacing this one's. */
    public StageEnvironment overriddenBy(String account, String region) {
        return new StageEnvironment(
                Optional.ofNullable(account).or(this::account),
                Optional.ofNullable(region).or(this::region));
    }
}
