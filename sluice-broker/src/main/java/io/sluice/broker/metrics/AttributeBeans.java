package io.sluice.broker.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MBeans of metrics in Kafka's metrics-library form ({@link MetricName#nameIsAttribute()}): one MBean per
 * {@code domain:type=<type>,<tags>}, one {@code double} attribute per metric, as Kafka's JmxReporter shows them (and, like
 * it, re-registered when an attribute is added or removed, so a JMX client's cached MBeanInfo is current). Only
 * gauges take this form.
 *
 * <p>Thread-safe: changes to one MBean's attributes are made under this object's monitor.
 */
final class AttributeBeans {
    private static final Logger LOG = LoggerFactory.getLogger(AttributeBeans.class);

    private final MBeanServer server;
    private final Map<ObjectName, GroupBean> beans = new ConcurrentHashMap<>();

    /** @param server where the MBeans go; null keeps them out of JMX */
    AttributeBeans(MBeanServer server) {
        this.server = server;
    }

    synchronized void add(MetricName name, Supplier<? extends Number> value) {
        if (server == null) {
            return;
        }
        ObjectName objectName = name.objectName();
        GroupBean bean = beans.computeIfAbsent(objectName, n -> new GroupBean(n.toString()));
        bean.attributes.put(name.name(), value);
        reregister(objectName, bean);
    }

    synchronized void remove(MetricName name) {
        ObjectName objectName = name.objectName();
        GroupBean bean = beans.get(objectName);
        if (bean == null || bean.attributes.remove(name.name()) == null) {
            return;
        }
        if (bean.attributes.isEmpty()) {
            beans.remove(objectName);
            unregister(objectName, bean);
        } else {
            reregister(objectName, bean);
        }
    }

    synchronized void close() {
        beans.forEach(this::unregister);
        beans.clear();
    }

    private void reregister(ObjectName objectName, GroupBean bean) {
        unregister(objectName, bean);
        try {
            server.registerMBean(bean, objectName);
            bean.registered = true;
        } catch (InstanceAlreadyExistsException e) {
            LOG.debug("{} is already in JMX (another broker in this JVM); counting without an MBean", objectName);
        } catch (JMException e) {
            LOG.warn("Could not register {} in JMX", objectName, e);
        }
    }

    private void unregister(ObjectName objectName, GroupBean bean) {
        if (!bean.registered) {
            return;
        }
        bean.registered = false;
        try {
            server.unregisterMBean(objectName);
        } catch (InstanceNotFoundException e) {
            LOG.debug("{} was already gone from JMX", objectName);
        } catch (JMException e) {
            LOG.warn("Could not unregister {} from JMX", objectName, e);
        }
    }

    /** One MBean: attribute name to gauge, read on every access. */
    private static final class GroupBean implements DynamicMBean {
        private final String description;
        private final Map<String, Supplier<? extends Number>> attributes = new ConcurrentHashMap<>();
        private boolean registered;

        GroupBean(String description) {
            this.description = description;
        }

        @Override
        public Object getAttribute(String attribute) throws AttributeNotFoundException {
            Supplier<? extends Number> value = attributes.get(attribute);
            if (value == null) {
                throw new AttributeNotFoundException("Could not find attribute " + attribute);
            }
            Number number = value.get();
            return number == null ? Double.NaN : number.doubleValue();
        }

        @Override
        public AttributeList getAttributes(String[] names) {
            AttributeList list = new AttributeList();
            for (String name : names) {
                try {
                    list.add(new Attribute(name, getAttribute(name)));
                } catch (AttributeNotFoundException e) {
                    // left out, as JmxReporter does
                }
            }
            return list;
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            List<MBeanAttributeInfo> infos = new ArrayList<>();
            for (String name : attributes.keySet()) {
                infos.add(new MBeanAttributeInfo(name, double.class.getName(), name, true, false, false));
            }
            return new MBeanInfo(
                    GroupBean.class.getName(), description, infos.toArray(new MBeanAttributeInfo[0]), null, null, null);
        }

        @Override
        public void setAttribute(Attribute attribute) {
            throw new UnsupportedOperationException("Set not allowed.");
        }

        @Override
        public AttributeList setAttributes(AttributeList list) {
            throw new UnsupportedOperationException("Set not allowed.");
        }

        @Override
        public Object invoke(String actionName, Object[] params, String[] signature) {
            throw new UnsupportedOperationException("Invoke not allowed.");
        }
    }
}
