package dev.pipelininglab.redis;

/**
 * The keys the lab owns: {@code lab.key-prefix}, checked where it is bound
 * ({@code config.LabProperties}).
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with
 * {@code <keyPrefix>:}
 */
public record KeyProperties(String keyPrefix) {

}
