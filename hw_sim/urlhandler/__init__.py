"""pyserial URL handlers of the simulator (``hwsim://NAME``).

pyserial finds ``protocol_<scheme>`` modules in the packages listed in
``serial.protocol_handler_packages``; importing :mod:`hw_sim.transport`
adds this one.
"""
