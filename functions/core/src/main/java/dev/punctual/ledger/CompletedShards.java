package dev.punctual.ledger;

import java.util.Optional;

/**
 * The shards of a job's completed one-time entities (decision 0047): each completion note lives under
 * its job and the CRC-32 of the entity's ledger id modulo {@link #SHARDS}, as the due index's entries do
 * (decision 0031), so a million {@code at()} entities completing in one minute spread their note writes
 * over 32 partitions instead of meeting one partition's 1,000 writes a second. A page of
 * {@code schedules list} reads the shards in order, each by entity id; its continuation names the shard
 * and the last entity read, {@code 07/order-1234}.
 */
public final class CompletedShards {

    /** Shards per job: 32 partitions take 16,000 transactional note writes a second. */
    public static final int SHARDS = DueBuckets.SHARDS;

    private CompletedShards() {}

    /** The shard of an entity's ledger id ({@code job:entity}). */
    public static int of(String ledgerId) {
        return DueBuckets.shard(ledgerId);
    }

    /** Where a page continues: in {@code shard}, after {@code entity} (none: from the shard's start). */
    public record Position(int shard, Optional<String> after) {

        public static final Position START = new Position(0, Optional.empty());

        /**
         * What a continuation's entity may be: an entity id's characters and length (EntityIds, which the
         * ledger package may not depend on), so a hand-edited token is refused before any request.
         */
        private static final java.util.regex.Pattern AFTER = java.util.regex.Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

        public Position {
            if (shard < 0 || shard > SHARDS) {
                throw new IllegalArgumentException("shard: 0-" + SHARDS + " accepted, was " + shard);
            }
            after = java.util.Objects.requireNonNull(after, "after");
        }

        /** Past the last shard: nothing more to read. */
        public boolean done() {
            return shard == SHARDS;
        }

        /** The token a caller hands back for the next page: {@code NN/entity} or {@code NN/}. */
        public String token() {
            return (shard < 10 ? "0" : "") + shard + "/" + after.orElse("");
        }

        /**
         * A token as {@link #token} writes it; empty when it is not one (the caller refuses it, naming its
         * option). An entity id never holds {@code /}, so the first one separates.
         */
        public static Optional<Position> parse(String token) {
            int slash = token.indexOf('/');
            if (slash != 2 || !Character.isDigit(token.charAt(0)) || !Character.isDigit(token.charAt(1))) {
                return Optional.empty();
            }
            int shard = Integer.parseInt(token.substring(0, 2));
            String entity = token.substring(3);
            if (shard >= SHARDS || (!entity.isEmpty() && !AFTER.matcher(entity).matches())) {
                return Optional.empty();
            }
            return Optional.of(new Position(shard, entity.isEmpty() ? Optional.empty() : Optional.of(entity)));
        }
    }
}
