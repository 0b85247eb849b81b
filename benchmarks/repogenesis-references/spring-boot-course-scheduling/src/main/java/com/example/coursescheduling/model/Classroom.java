package com.example.coursescheduling.model;

public class Classroom {
    public Long id;
    public String name;
    public Integer capacity;
    /** e.g. NORMAL, MULTIMEDIA, LAB */
    public String type;
}
