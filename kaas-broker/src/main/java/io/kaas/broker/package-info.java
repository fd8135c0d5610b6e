/** The kaas broker: lifecycle and the services handlers share. */
package io.kaas.broker;
